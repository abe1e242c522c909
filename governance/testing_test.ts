import assert from "node:assert/strict";
import { fakeClock, fakeLedger, keyWith, modelWith, requestOf } from "./testing.ts";

Deno.test("testing helpers: a key in a team, a request, a ledger, a clock", async () => {
  const key = keyWith({ rpm: 1 }, { id: "t", policy: { tpm: 2 } });
  assert.equal(key.team, "t");
  assert.deepEqual(key.teamPolicy, { tpm: 2 });
  const request = requestOf(key, modelWith("m"), { maxTokens: 5 });
  assert.deepEqual(request.body, { model: "m", stream: true, max_tokens: 5 });
  assert.equal(request.stream, true);
  const whole = requestOf(key, modelWith("m"), { stream: false });
  assert.deepEqual([whole.body.stream, whole.stream], [false, false]);
  const ledger = fakeLedger(() => 3);
  assert.equal(await ledger.spend({ keyId: "k", start: 0 }), 3);
  assert.deepEqual(ledger.queries, [{ keyId: "k", start: 0 }]);
  const clock = fakeClock(10);
  clock.advance(5);
  assert.equal(clock.now(), 15);
});
