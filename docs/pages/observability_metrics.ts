/**
 * The Observability page's metrics section: `/metrics` and its settings, every series read from
 * the registry gatehouse builds (name, type, labels, help, buckets), how workers and instances
 * are exposed, a Prometheus scrape config and Grafana queries.
 * @module
 */
import client from "prom-client";
import { createSeries, OVERHEAD_BUCKETS } from "../../observe/metrics/series.ts";
import { BUDGET_CACHE_MS } from "../../observe/metrics/scrape_gauges.ts";
import { code, html, type Part } from "../html.ts";
import type { Site } from "../site.ts";

/** One series as the page lists it. */
interface Listed {
  name: string;
  type: string;
  labels: string[];
  help: string;
}

/** Every series of a registry built with the key label, in registration order. */
export function listedSeries(): Listed[] {
  const { registry } = createSeries(true);
  return registry.getMetricsAsArray().map((metric) => {
    const m = metric as unknown as { name: string; help: string; labelNames?: string[] };
    const type = metric instanceof client.Counter
      ? "counter"
      : metric instanceof client.Histogram
      ? "histogram"
      : "gauge";
    return { name: m.name, type, labels: m.labelNames ?? [], help: m.help };
  });
}

/** A label; the key's name only with the flag. */
function label(name: string): Part {
  if (name !== "key") return html`<code>${name}</code>`;
  return html`<code>key</code> (with <code>GATEHOUSE_METRICS_KEY_LABELS=1</code>)`;
}

function seriesTable(): Part {
  return html`
    <table>
      <thead>
        <tr>
          <th>series</th>
          <th>type</th>
          <th>labels</th>
          <th>what it counts</th>
        </tr>
      </thead>
      <tbody>${listedSeries().map((s) =>
        html`
          <tr>
            <td><code>${s.name}</code></td>
            <td>${s.type}</td>
            <td>${s.labels.map((l, i) => html`${i > 0 ? ", " : ""}${label(l)}`)}</td>
            <td>${s.help}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

const scrapeConfig = (host: string, apiHost: string) =>
  `scrape_configs:
  - job_name: gatehouse
    # METRICS_PORT=9464 on each instance: no key needed on that port.
    static_configs:
      - targets: ["${host}:9464"]
  - job_name: gatehouse-api-port
    # Or the API port, with an admin key (keep it in a file Prometheus reads).
    metrics_path: /metrics
    authorization:
      type: Bearer
      credentials_file: /etc/prometheus/gatehouse_admin_key
    static_configs:
      - targets: ["${apiHost}"]
`;

const GRAFANA = [
  [
    "Spend per model, US dollars per hour",
    "sum by (served_model) (increase(gatehouse_cost_usd_total[1h]))",
  ],
  [
    "Error ratio (anything not ok), per route",
    'sum by (route) (rate(gatehouse_requests_total{outcome!="ok"}[5m])) / sum by (route) (rate(gatehouse_requests_total[5m]))',
  ],
  [
    "Gatehouse's own overhead, p99, in ms",
    "1000 * histogram_quantile(0.99, sum by (le) (rate(gatehouse_gateway_overhead_seconds_bucket[5m])))",
  ],
  [
    "Time to first token, p50 per model",
    "histogram_quantile(0.5, sum by (le, model) (rate(gatehouse_time_to_first_token_seconds_bucket[5m])))",
  ],
  [
    "Deployments not healthy",
    'sum by (deployment, state) (gatehouse_deployment_state{state!="healthy"}) > 0',
  ],
  ["Budget left per key", 'min by (id) (gatehouse_budget_remaining_usd{scope="key"})'],
];

/** The section. */
export function metricsSection(site: Site): Part {
  const api = new URL(site.api);
  const host = api.hostname;
  return html`
    <h2 id="metrics">Prometheus metrics</h2>
    <p><code>GET /metrics</code> answers in the Prometheus text format (written by
    <code>prom-client</code>). On the API port it needs an <strong>admin</strong> key
    (<code>Authorization: Bearer</code>; a member key gets <code>403</code>). Set
    <code>METRICS_PORT</code> to also serve it on a port of its own <strong>without</strong> a key,
    the usual scrape set-up: keep that port on a private network.</p>
    <table>
      <thead>
        <tr>
          <th>variable</th>
          <th>default</th>
          <th>meaning</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <td><code>GATEHOUSE_METRICS</code></td>
          <td><code>on</code></td>
          <td><code>off</code>
        stops collecting; <code>/metrics</code> then answers <code>404</code>
        <code>metrics_off</code>.</td>
        </tr>
        <tr>
          <td><code>GATEHOUSE_METRICS_KEY_LABELS</code></td>
          <td>—</td>
          <td><code>1</code> adds
        a <code>key</code> label (the key's name) to the request, token, cost and limit-rejection
        counters (never to a histogram). Off by default: a label per key multiplies the series.</td>
        </tr>
        <tr>
          <td><code>METRICS_PORT</code>, <code>METRICS_HOST</code></td>
          <td>—, the API's
        <code>HOST</code></td>
          <td>an unauthenticated listener for <code>/metrics</code> only.</td>
        </tr>
      </tbody>
    </table>
    <p>Labels are bounded: routes, models (the catalog's ids always; any other name — a pattern
    match, a refused unknown model — takes one of at most 500 further values, then
    <code>other</code>, so made-up names cannot grow the series or push a catalog model out),
    deployments, providers, outcomes
    (the ledger's, <a href="${site.link("/reliability")}#request-log">listed here</a>) and status
    classes (<code>2xx</code>, <code>4xx</code>, … or <code>none</code>). Budget gauges name a
    key or team by its id (a key's name only with the key-labels flag: they are served on
    <code>METRICS_PORT</code> without a key too), one series per key and team that has a budget;
    they are read from the ledger at scrape time and kept ${BUDGET_CACHE_MS / 1000} s, so an
    eager scraper does not load the database.</p>
    ${seriesTable()}
    <p><strong>Gateway overhead</strong> is gatehouse's own time on a request that reached a
    provider: the time to the first byte sent to the client (or to the end, without one) minus
    the time spent waiting on upstreams (each attempt from its call until its first chunk, or its
    whole body) and in backoff between attempts. Its buckets start at
    ${OVERHEAD_BUCKETS[0]! * 1e6} µs. Tokens: <code>cached</code> and <code>cache_write</code>
    are parts of <code>input</code>, <code>reasoning</code> of <code>output</code>: do not add the
    types up. <code>gatehouse_limit_rejections_total</code>'s <code>kind</code> is the limit that
    refused (<code>rpm</code>, <code>tpm</code>, <code>max_parallel</code>, <code>budget</code>,
    <code>model_not_allowed</code>, <code>limits_unavailable</code>) or <code>budget_cut</code> for
    a stream its budget ended; an expired or revoked key is refused at authentication and is not a
    model request.</p>
    <h3 id="metrics-workers">Workers and several instances</h3>
    <p>With <code>--workers N</code> every worker thread keeps its own series, labelled
    <code>worker</code> (<code>0</code>…). A scrape of either port is answered for the
    <strong>whole process</strong>: the worker that takes it asks the main thread, which gathers
    every worker's series. A worker that restarts starts its counters again at zero, which
    Prometheus handles as that series' reset; one that does not answer within 3 s (restarting) is
    missing from that scrape, never folded into another's totals. Sum over workers with
    <code>sum without (worker)</code>; the budget gauges are the same figure in each worker (one
    ledger): take <code>min without (worker)</code>. Health is kept per worker, so
    <code>gatehouse_deployment_state</code> is per worker too. Several instances are scraped each
    on its own address: Prometheus adds the <code>instance</code> label; aggregate with
    <code>sum without (instance, worker)</code>.</p>
    <h3 id="scrape-config">Scrape config and Grafana queries</h3>
    ${code(scrapeConfig(host, api.host), "yaml")}
    <table>
      <thead>
        <tr>
          <th>panel</th>
          <th>PromQL</th>
        </tr>
      </thead>
      <tbody>${GRAFANA.map(([panel, query]) =>
        html`
          <tr>
            <td>${panel}</td>
            <td><code>${query}</code></td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}
