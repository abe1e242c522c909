import assert from "node:assert/strict";
import { stolenShare } from "./machine.ts";
import { machineBusy } from "./streams/proc_stats.ts";

Deno.test("stolen share: the host's steal time over the machine's cores during the run", () => {
  const cores = navigator.hardwareConcurrency;
  const { seconds, share } = stolenShare({ stolenS: 10 }, { stolenS: 10 + cores }, 10_000);
  assert.equal(seconds, cores);
  assert.equal(share, 0.1, "one core-second per second of 10 s on every core: a tenth");
  assert.deepEqual(stolenShare({ stolenS: 5 }, { stolenS: 5 }, 0), { seconds: 0, share: 0 });
});

Deno.test({
  name: "stolen share: /proc/stat's steal field is read (Linux)",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const before = await machineBusy();
    const after = await machineBusy();
    assert.ok(Number.isFinite(before.stolenS) && before.stolenS >= 0, String(before.stolenS));
    assert.ok(after.stolenS >= before.stolenS);
    assert.ok(before.processS > 0 && Number.isFinite(before.interruptS));
  },
});
