/**
 * The hold of a metered stream past its reservation, over HTTP on every route: while the stream
 * is in flight its hold (`GET /v1/usage`, `in_flight_usd`) is its actual spend so far, exactly
 * what its row bills once its client leaves. The meter keeps text uncounted only while the
 * spend's upper bound stays within the reservation; this checks that past it the hold is never
 * behind what was delivered.
 */
import assert from "node:assert/strict";
import { bodyFor, ROUTES, startGov, until, words } from "../tests/governance/gov_kit.ts";

const gov = await startGov();

for (const route of ROUTES) {
  Deno.test(`${route.name}: in flight past its reservation, the hold is what was delivered`, async () => {
    // Twelve events, then the upstream waits: enough words to pass a 2-token reservation.
    Object.assign(gov.upstream.pace, { eventsPerChunk: 1, delayMs: 1, holdAfterChunks: 12 });
    const body = bodyFor(route.wire, route.model, { stream: true, text: words(40), maxTokens: 2 });
    const key = await gov.key({ budgetUsd: 100, budgetPeriod: "month" });
    const leaving = new AbortController();
    const response = await gov.send(route.wire, key.secret, body, leaving.signal);
    assert.equal(response.status, 200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (!seen.includes("bravo")) {
      const { done, value } = await reader.read();
      assert.ok(!done, `the stream stays open (got ${seen})`);
      seen += value;
    }
    const budget = async () => (await (await gov.get("/v1/usage", key.secret)).json()).budget;
    // The rest of the twelve events reach the gateway; then nothing more comes.
    let inFlight = -1;
    for (let tries = 0; tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      const before = inFlight;
      inFlight = (await budget()).in_flight_usd;
      if (inFlight === before) break;
    }
    leaving.abort();
    await reader.cancel().catch(() => {});
    assert.ok(await until(() => gov.rows(key.id).length === 1));
    const row = gov.rows(key.id)[0]!;
    assert.equal(row.outcome, "client_disconnect");
    assert.ok(row.outputTokens > 2, `past the reservation (${row.outputTokens} tokens)`);
    assert.ok(Math.abs(inFlight - row.cost) < 2e-6, `held ${inFlight} = billed ${row.cost}`);
    assert.equal((await budget()).in_flight_usd, 0);
  });
}

Deno.test("meter hold: close", async () => {
  gov.upstream.release();
  await gov.close();
});
