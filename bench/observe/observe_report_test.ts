import assert from "node:assert/strict";
import { formatObserveRuns, type ObserveRun, requestsCounted } from "./observe_report.ts";
import { OBSERVE_CONFIGS, parseObserveSettings } from "./observe_settings.ts";

const wrk = (rps: number, p50: number) => ({
  requests: rps * 8,
  seconds: 8,
  rps,
  p50,
  p75: p50,
  p90: p50,
  p99: p50,
  non2xx: 0,
  socketErrors: { connect: 0, read: 0, write: 0, timeout: 0 },
});

Deno.test("observe bench: medians, added latency and throughput share against off", () => {
  const runs: ObserveRun[] = [];
  for (const [round, offRps, onRps] of [[1, 1000, 900], [2, 1100, 880], [3, 1050, 1000]]) {
    runs.push({
      round: round!,
      config: "off",
      scenario: "chat-json",
      connections: 32,
      wrk: wrk(offRps!, 5),
    });
    runs.push({
      round: round!,
      config: "metrics",
      scenario: "chat-json",
      connections: 32,
      wrk: wrk(onRps!, 5),
    });
    runs.push({
      round: round!,
      config: "off",
      scenario: "chat-json",
      connections: 1,
      wrk: wrk(3000, 0.3),
    });
    runs.push({
      round: round!,
      config: "metrics",
      scenario: "chat-json",
      connections: 1,
      wrk: wrk(2900, 0.32),
    });
  }
  const table = formatObserveRuns(OBSERVE_CONFIGS.slice(0, 2), runs);
  assert.ok(table.includes("| chat-json | off | 0.300 |  | 1050 |  |"), table);
  assert.match(table, /\| chat-json \| metrics \| 0\.320 \| \+0\.020 ms \| 900 \| 0\.86 \|/);
});

Deno.test("observe bench: counts requests across the series of gatehouse_requests_total", () => {
  const text = [
    "# HELP gatehouse_requests_total Requests",
    "# TYPE gatehouse_requests_total counter",
    'gatehouse_requests_total{route="/v1/chat/completions",outcome="ok"} 120',
    'gatehouse_requests_total{route="/v1/messages",outcome="ok"} 3',
    "gatehouse_requests_in_flight 2",
  ].join("\n");
  assert.equal(requestsCounted(text), 123);
});

Deno.test("observe bench: settings keep off as the baseline", () => {
  const settings = parseObserveSettings(["--only=observe", "--configs=metrics", "--seconds=2"]);
  assert.deepEqual(settings.configs.map((c) => c.id), ["off", "metrics"]);
  assert.equal(settings.seconds, 2);
  assert.throws(() => parseObserveSettings(["--configs=nope"]), /no configuration "nope"/);
});
