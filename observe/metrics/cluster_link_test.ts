import assert from "node:assert/strict";
import type { Gauge } from "prom-client";
import { createSeries } from "./series.ts";
import { MetricsGatherer, WorkerMetricsLink } from "./cluster_link.ts";
import { parseExposition, samplesOf, total } from "./testing.ts";

/** A worker's series and link, attached to `gatherer` as worker `index`. */
function worker(gatherer: MetricsGatherer, index: number, requests: number, budget: number) {
  const series = createSeries(false);
  series.requests.labels("/v1/chat/completions", "gpt-5", "gpt-5", "mock", "ok", "2xx")
    .inc(requests);
  series.duration.labels("/v1/chat/completions", "gpt-5", "mock", "2xx").observe(0.2);
  series.collectors.inFlight = () => series.inFlight.set(index + 1);
  const set = (gauge: Gauge) => () =>
    gauge.set({ scope: "key", id: "key_1", period: "day" }, budget);
  series.collectors.budgetRemaining = set(series.budgetRemaining);
  const channel = new MessageChannel();
  gatherer.attach(index, channel.port1);
  return new WorkerMetricsLink(channel.port2, series.registry);
}

Deno.test("cluster link: one worker's scrape covers every worker, summed or not as each says", async () => {
  const gatherer = new MetricsGatherer();
  const a = worker(gatherer, 0, 3, 1.5);
  const b = worker(gatherer, 1, 4, 1.25);
  try {
    for (const link of [a, b]) {
      const x = parseExposition((await link.scrape()).text);
      assert.equal(total(x, "gatehouse_requests_total"), 7);
      assert.equal(total(x, "gatehouse_request_duration_seconds_count"), 2);
      assert.equal(total(x, "gatehouse_request_duration_seconds_bucket", { le: "0.25" }), 2);
      assert.equal(total(x, "gatehouse_requests_in_flight"), 3);
      // Read by each worker from the same ledger: not summed.
      assert.deepEqual(samplesOf(x, "gatehouse_budget_remaining_usd").map((s) => s.value), [1.25]);
      assert.equal(x.types.get("gatehouse_request_duration_seconds"), "histogram");
    }
    // A worker that ended is left out.
    gatherer.detach(1);
    const x = parseExposition((await gatherer.gather()).text);
    assert.equal(total(x, "gatehouse_requests_total"), 3);
  } finally {
    a.close();
    b.close();
    gatherer.close();
  }
});
