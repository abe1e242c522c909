import assert from "node:assert/strict";
import { readMetricsSettings } from "./settings.ts";

const env = (values: Record<string, string>) => (name: string) => values[name];

Deno.test("metrics settings: on by default, no key label, no port", () => {
  assert.deepEqual(readMetricsSettings(env({})), {
    enabled: true,
    keyLabels: false,
    port: null,
    host: null,
  });
});

Deno.test("metrics settings: off, key labels, a port and its host", () => {
  assert.deepEqual(
    readMetricsSettings(env({
      GATEHOUSE_METRICS: "off",
      GATEHOUSE_METRICS_KEY_LABELS: "1",
      METRICS_PORT: "9464",
      METRICS_HOST: "0.0.0.0",
    })),
    { enabled: false, keyLabels: true, port: 9464, host: "0.0.0.0" },
  );
  assert.equal(readMetricsSettings(env({ METRICS_PORT: "off" })).port, null);
});

Deno.test("metrics settings: a bad value names its variable", () => {
  assert.throws(
    () => readMetricsSettings(env({ GATEHOUSE_METRICS: "maybe" })),
    /GATEHOUSE_METRICS=/,
  );
  assert.throws(() => readMetricsSettings(env({ METRICS_PORT: "70000" })), /METRICS_PORT="70000"/);
  assert.throws(
    () => readMetricsSettings(env({ GATEHOUSE_METRICS_KEY_LABELS: "yes please" })),
    /GATEHOUSE_METRICS_KEY_LABELS/,
  );
});
