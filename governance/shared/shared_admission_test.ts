import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { emptyUsage } from "../../core/response.ts";
import type { Admission } from "../../gateway/admission.ts";
import { fakeLedger, keyWith, modelWith, requestOf, spentOf } from "../testing.ts";
import { SharedGovernor } from "./shared_governor.ts";
import { backendTest } from "./test_backends.ts";

const model = modelWith("gpt-test", { input: 0, output: 1_000 });
const flowing = (cost: number) => ({ usage: emptyUsage(), cost });

backendTest(
  "shared watch: concurrent streams on two instances stay within budget + one delta and one round trip each",
  async (made) => {
    const store = fakeLedger(() => 0);
    const a = new SharedGovernor({ backend: made.backend, store });
    const b = new SharedGovernor({ backend: made.backend, store });
    const key = keyWith({ budgetUsd: 10 });
    const N = 8;
    const DELTA = 0.05;
    const streams: { admission: Admission; cost: number; cut: GatewayError | null }[] = [];
    for (let i = 0; i < N; i++) {
      const admission = await (i % 2 ? a : b).admit(requestOf(key, model, { maxTokens: 1_000 }));
      streams.push({ admission, cost: 0, cut: null });
    }
    // One delta per stream per round; a round lasts longer than a backend round trip.
    for (let round = 0; round < 200 && streams.some((s) => s.cut === null); round++) {
      for (const stream of streams) {
        if (stream.cut !== null) continue;
        stream.cost += DELTA;
        const quiet = stream.admission.quiet?.(stream.cost) ?? false;
        stream.cut = quiet ? null : stream.admission.watch!(flowing(stream.cost));
        if (stream.cut !== null) stream.admission.release(spentOf({}, stream.cost));
      }
      await new Promise((resolve) => setTimeout(resolve, made.redis ? 5 : 0));
    }
    const spent = streams.reduce((sum, s) => sum + s.cost, 0);
    const bound = N * 2 * DELTA;
    assert.ok(spent <= 10 + bound + 1e-9, `spent ${spent} within 10 + ${bound}`);
    assert.ok(spent >= 10 - 1e-9, `the streams ran up to the budget: ${spent}`);
    for (const { cut } of streams) {
      assert.ok(cut instanceof GatewayError);
      assert.equal(cut.code, "insufficient_quota");
      assert.match(
        cut.message,
        /^Budget reached for this key: \$\d+\.\d+ spent of \$10\.00 in total/,
      );
    }
    const status = await a.status(key);
    assert.ok(Math.abs((status.key?.spentUsd ?? 0) - spent) < 1e-9, "every cost settled");
    assert.equal(status.inFlightUsd, 0);
  },
);

backendTest(
  "shared watch: quiet under the reservation; a hold past it is seen by the other instance",
  async (made) => {
    const store = fakeLedger(() => 0);
    const a = new SharedGovernor({ backend: made.backend, store });
    const b = new SharedGovernor({ backend: made.backend, store });
    const key = keyWith({ budgetUsd: 3 });
    const first = await a.admit(requestOf(key, model, { maxTokens: 1_000 })); // $1
    const second = await b.admit(requestOf(key, model, { maxTokens: 1_000 })); // $1
    assert.equal(first.quiet?.(0.9), true);
    assert.equal(first.quiet?.(1.1), false, "past its reservation");
    assert.equal(first.watch?.(flowing(1.5)), null); // holds $1.5 once the update lands
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(second.watch?.(flowing(0.4)), null); // refreshes its snapshot
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(second.watch?.(flowing(1.5)) instanceof GatewayError, "1.5 + 1.5 = 3");
    first.release(spentOf({}, 1.5));
    second.release(spentOf({}, 1.5));
    assert.equal(first.watch?.(flowing(5)), null, "released: never cut");
  },
);
