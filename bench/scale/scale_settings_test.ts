import assert from "node:assert/strict";
import { parseScaleSettings, SCALE_CONFIGS } from "./scale_settings.ts";

Deno.test("parseScaleSettings: defaults are issue #17's configurations, 10 s after 3 s, c=32", () => {
  const settings = parseScaleSettings(["--only=scale"]);
  assert.deepEqual(settings.configs, SCALE_CONFIGS.filter((c) => "abcd".includes(c.id)));
  assert.equal(settings.seconds, 10);
  assert.equal(settings.slices, 5);
  assert.equal(settings.sliceSeconds, 2);
  assert.equal(settings.warmupSeconds, 3);
  assert.equal(settings.connections, 32);
  assert.equal(settings.ledgerRows, 50_000);
  assert.equal(settings.postgresUrl, "postgres://postgres@127.0.0.1:5432/postgres");
});

Deno.test("parseScaleSettings: --configs, --seconds, --ledger-rows; bad values named", () => {
  const settings = parseScaleSettings(["--configs=c,a", "--seconds=5", "--ledger-rows=0"]);
  assert.deepEqual(settings.configs.map((c) => c.id), ["a", "c"]);
  assert.equal(settings.seconds, 5);
  assert.equal(settings.sliceSeconds, 1);
  assert.equal(parseScaleSettings(["--seconds=2"]).sliceSeconds, 1);
  assert.equal(settings.ledgerRows, 0);
  assert.throws(() => parseScaleSettings(["--configs=g"]), /unknown configuration g; known: a, b/);
  const split = parseScaleSettings(["--configs=e,f"]).configs;
  assert.deepEqual(split.map((c) => [c.store, c.redis, c.policied]), [
    ["sqlite", false, true],
    ["postgres", false, true],
  ]);
  assert.throws(() => parseScaleSettings(["--seconds=2.5"]), /--seconds/);
  assert.throws(() => parseScaleSettings(["--warmup=-1"]), /--warmup/);
});
