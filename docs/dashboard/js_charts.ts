/**
 * The dashboard's charts (browser JavaScript, inside `dashboard.js`), drawn with Chart.js from
 * the docs host's own assets: spend and tokens stacked by group, requests with the error rate,
 * latency and time-to-first-byte percentiles, and the range's totals. The data each chart
 * shows is readable from the page (`window.gatehouseDashboard.chartData()`), for tests.
 * @module
 */

/** The charts, as browser JavaScript. */
export const CHARTS_JS = `
const PALETTE = ["#2c5fd8", "#e07b39", "#1f9e89", "#b3261e", "#8e44ad", "#c9a227", "#d45087",
  "#3d9970", "#5b6475"];

/** A series group's label: the key's name for a key id, "(no team)", "other". */
function groupLabel(group) {
  if (group === null) return "other";
  if (G.groupBy === "key") {
    const key = G.keys.find((k) => k.id === group);
    return key ? key.name + " (" + key.hint + ")" : group;
  }
  if (G.groupBy === "team" && group === "") return "(no team)";
  return group;
}

function bucketLabel(iso) {
  const options = G.range === "24h"
    ? { hour: "2-digit", minute: "2-digit" }
    : G.range === "7d"
    ? { weekday: "short", day: "numeric", hour: "2-digit" }
    : { month: "short", day: "numeric" };
  return new Date(iso).toLocaleString("en-GB", options);
}

function baseOptions(stacked, yTitle) {
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: "index", intersect: false },
    plugins: { legend: { position: "bottom" } },
    scales: {
      x: { stacked },
      y: { stacked, beginAtZero: true, title: { display: true, text: yTitle } },
    },
  };
}

function draw(id, config) {
  if (G.charts[id]) G.charts[id].destroy();
  G.charts[id] = new Chart(byId(id), config);
}

function stacked(id, labels, series, values, yTitle) {
  const datasets = series.map((s, i) => ({
    label: groupLabel(s.group),
    data: values(s),
    backgroundColor: PALETTE[i % PALETTE.length],
  }));
  draw(id, { type: "bar", data: { labels, datasets }, options: baseOptions(true, yTitle) });
}

function line(label, data, color, dashed) {
  return {
    label,
    data,
    borderColor: color,
    backgroundColor: color,
    borderDash: dashed ? [5, 4] : [],
    spanGaps: true,
    pointRadius: 2,
    tension: 0.2,
  };
}

function drawTotals(series) {
  const sum = (pick) => series.buckets.reduce((total, b) => total + pick(b), 0);
  const requests = sum((b) => b.requests);
  const errors = sum((b) => b.errors);
  const figures = [
    ["Spend", usd(sum((b) => b.cost))],
    ["Tokens", count(sum((b) => b.input_tokens + b.output_tokens))],
    ["Requests", count(requests)],
    ["Error rate", requests === 0 ? "–" : (100 * errors / requests).toFixed(1) + " %"],
  ];
  byId("totals").replaceChildren(...figures.map(([name, value]) =>
    el("div", {}, [el("dl", {}, [el("dt", { text: name }), el("dd", { text: value })])])
  ));
}

/** Draws every chart from a \`GET /admin/v1/usage/series\` answer. */
function drawSeries(series) {
  G.series = series;
  const labels = series.buckets.map((b) => bucketLabel(b.start));
  stacked("chart-spend", labels, series.series, (s) => s.cost, "USD");
  stacked(
    "chart-tokens",
    labels,
    series.series,
    (s) => s.input_tokens.map((n, i) => n + s.output_tokens[i]),
    "tokens",
  );
  const rate = series.buckets.map((b) => b.requests === 0 ? null : 100 * b.errors / b.requests);
  const requests = baseOptions(false, "requests");
  requests.scales.rate = {
    position: "right",
    beginAtZero: true,
    suggestedMax: 10,
    title: { display: true, text: "error rate %" },
    grid: { drawOnChartArea: false },
  };
  draw("chart-requests", {
    type: "bar",
    data: {
      labels,
      datasets: [
        { label: "requests", data: series.buckets.map((b) => b.requests), backgroundColor: PALETTE[0] },
        { ...line("error rate %", rate, PALETTE[3], false), type: "line", yAxisID: "rate" },
      ],
    },
    options: requests,
  });
  const pick = (field, p) => series.buckets.map((b) => b[field][p]);
  draw("chart-latency", {
    type: "line",
    data: {
      labels,
      datasets: [
        line("latency p50", pick("latency_ms", "p50"), PALETTE[0], false),
        line("latency p95", pick("latency_ms", "p95"), PALETTE[0], true),
        line("TTFT p50", pick("ttft_ms", "p50"), PALETTE[1], false),
        line("TTFT p95", pick("ttft_ms", "p95"), PALETTE[1], true),
      ],
    },
    options: baseOptions(false, "ms"),
  });
  drawTotals(series);
  const board = byId("board");
  board.setAttribute("data-range", series.range);
  board.setAttribute("data-group-by", series.group_by);
  board.setAttribute("data-drawn", String(Number(board.getAttribute("data-drawn") || 0) + 1));
}

/** What each chart shows, read back from its Chart.js instance. */
function chartData() {
  const out = {};
  for (const [id, chart] of Object.entries(G.charts)) {
    out[id] = {
      labels: chart.data.labels.slice(),
      datasets: chart.data.datasets.map((d) => ({ label: d.label, data: d.data.slice() })),
    };
  }
  return out;
}
`;
