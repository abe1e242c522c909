import assert from "node:assert/strict";
import client from "prom-client";
import { directCounter, directHistogram } from "./direct_children.ts";

/** A registry with one counter and one histogram, labelled like the gateway's. */
function registryPair() {
  const registry = new client.Registry();
  const registers = [registry];
  const counter = new client.Counter({
    name: "t_total",
    help: "t",
    labelNames: ["route", "model"],
    registers,
  });
  const histogram = new client.Histogram({
    name: "t_seconds",
    help: "t",
    labelNames: ["route"],
    buckets: [0.001, 0.01, 0.1, 1],
    registers,
  });
  return { registry, counter, histogram };
}

const observed = [0.0005, 0.001, 0.02, 0.5, 3, 0.01, 7.25];

Deno.test("direct children export exactly what prom-client's own children do", async () => {
  const own = registryPair();
  const direct = registryPair();
  const children = {
    a: directCounter(direct.counter, ["/v1/chat/completions", "gpt-5"]),
    b: directCounter(direct.counter, ["/v1/messages", "claude"]),
    never: directCounter(direct.counter, ["/v1/responses", "unused"]),
    h: directHistogram(direct.histogram, ["/v1/chat/completions"]),
    hNever: directHistogram(direct.histogram, ["/v1/responses"]),
  };
  const ownA = own.counter.labels("/v1/chat/completions", "gpt-5");
  const ownB = own.counter.labels("/v1/messages", "claude");
  const ownH = own.histogram.labels("/v1/chat/completions");
  for (const [i, value] of observed.entries()) {
    children.a.inc();
    ownA.inc();
    children.b.inc(i * 1.5);
    ownB.inc(i * 1.5);
    children.h.observe(value);
    ownH.observe(value);
  }
  assert.equal(await direct.registry.metrics(), await own.registry.metrics());
  assert.doesNotMatch(await direct.registry.metrics(), /unused|\/v1\/responses/);
  assert.deepEqual(
    await direct.registry.getMetricsAsJSON(),
    await own.registry.getMetricsAsJSON(),
  );
});

Deno.test("after a reset, direct children start their series again", async () => {
  const { registry, counter, histogram } = registryPair();
  const c = directCounter(counter, ["r", "m"]);
  const h = directHistogram(histogram, ["r"]);
  c.inc(5);
  h.observe(0.5);
  registry.resetMetrics();
  c.inc(2);
  h.observe(0.05);
  const text = await registry.metrics();
  assert.match(text, /^t_total\{route="r",model="m"\} 2$/m);
  assert.match(text, /^t_seconds_count\{route="r"\} 1$/m);
  assert.match(text, /^t_seconds_bucket\{le="0\.1",route="r"\} 1$/m);
});

Deno.test("direct children refuse what prom-client refuses", () => {
  const { counter, histogram } = registryPair();
  assert.throws(() => directCounter(counter, ["only one"]), /expected 2 label values/);
  const c = directCounter(counter, ["r", "m"]);
  c.inc();
  assert.throws(() => c.inc(-1), TypeError);
  const h = directHistogram(histogram, ["r"]);
  h.observe(1);
  assert.throws(() => h.observe(Number.POSITIVE_INFINITY), TypeError);
});
