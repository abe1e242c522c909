/**
 * A budget's cut at the edges of a stream, on every client protocol, passthrough and
 * translated: a cut inside an upstream read that also holds the rest of the answer and its
 * terminal event (the client gets nothing past the delta that reached the budget, then the
 * protocol's terminal error, and is billed exactly what it got); and a client that leaves
 * mid-stream under a budget (billed for what was delivered, its reservation released so a later
 * request fits).
 */
import assert from "node:assert/strict";
import { expectedUse } from "../../governance/estimate.ts";
import {
  bodyFor,
  envelopeOf,
  type Gov,
  PATH,
  readStream,
  refusalType,
  type Route,
  ROUTES,
  startGov,
  tokensOf,
  until,
  words,
} from "./gov_kit.ts";

const gov = await startGov();

/** The dollars `route`'s admission reserves for `body`. */
function reservationOf(g: Gov, route: Route, body: Record<string, unknown>): number {
  const model = g.h.deps.catalog.resolve(route.model)!;
  const bytes = new TextEncoder().encode(JSON.stringify(body)).length;
  return expectedUse(model, PATH[route.wire], body, bytes).reservationUsd;
}

for (const route of ROUTES) {
  Deno.test(`${route.name}: a cut inside the read that ends the answer still ends in error`, async () => {
    // The whole answer, terminal event included, in one network chunk.
    Object.assign(gov.upstream.pace, { eventsPerChunk: 1000, delayMs: 1 });
    delete gov.upstream.pace.holdAfterChunks;
    const body = bodyFor(route.wire, route.model, { stream: true, text: words(12), maxTokens: 8 });
    // Room for the reservation (input + 8 output tokens) and no more: the cut comes mid-answer.
    const budget = Math.ceil(reservationOf(gov, route, body) * 1e6) / 1e6;
    const key = await gov.key({ budgetUsd: budget, budgetPeriod: "month" });
    const response = await gov.send(route.wire, key.secret, body);
    assert.equal(response.status, 200);
    const read = await readStream(route.wire, response);
    assert.equal(read.ending, "error", "the protocol's terminal error, not a clean end");
    assert.equal(read.errorType, refusalType(route.wire, "quota"));
    assert.ok(read.text.length > 0 && `You said: ${words(12)}`.startsWith(read.text));
    assert.ok(read.text.length < `You said: ${words(12)}`.length, "nothing past the cut");
    if (route.wire === "responses") {
      // Numbered after the last event forwarded, with no gap.
      const numbers = read.events.map((event) => JSON.parse(event.data).sequence_number);
      assert.deepEqual(numbers, numbers.map((_, i) => i));
    }
    assert.ok(await until(() => gov.rows(key.id).length === 1));
    const row = gov.rows(key.id)[0]!;
    assert.equal(row.outcome, "budget_cut");
    const delivered = read.deltas.reduce((sum, delta) => sum + tokensOf(delta), 0);
    assert.equal(row.outputTokens, delivered, "billed exactly the output delivered");
    const price = gov.h.deps.catalog.resolve(route.model)!.pricing.output!;
    assert.ok(row.cost <= budget + price / 1e6 + 1e-12, `${row.cost} ≤ ${budget} + one token`);
  });

  Deno.test(`${route.name}: a client leaving mid-stream is billed, and its hold released`, async () => {
    // Ten events, then the upstream waits: the request stays in flight until the client leaves.
    Object.assign(gov.upstream.pace, { eventsPerChunk: 1, delayMs: 1, holdAfterChunks: 10 });
    const body = bodyFor(route.wire, route.model, { stream: true, text: words(40), maxTokens: 64 });
    const reservation = reservationOf(gov, route, body);
    const second = bodyFor(route.wire, route.model, { text: "Hi", maxTokens: 8 });
    // The stream's reservation fits, and the second request's on top of it does not; the few
    // tokens the stream delivers before its client leaves leave room for it.
    const budget = Math.round((reservation + reservationOf(gov, route, second) / 2) * 1e6) / 1e6;
    const key = await gov.key({ budgetUsd: budget, budgetPeriod: "month" });
    const abortedBefore = gov.upstream.aborted;
    const leaving = new AbortController();
    const response = await gov.send(route.wire, key.secret, body, leaving.signal);
    assert.equal(response.status, 200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (!seen.includes("alpha")) {
      const { done, value } = await reader.read();
      assert.ok(!done, `the stream stays open (got ${seen})`);
      seen += value;
    }

    // In flight, the stream holds its reservation: a second request does not fit.
    const refused = await gov.send(route.wire, key.secret, second);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "1");
    const error = envelopeOf(route.wire, await refused.json());
    assert.equal(error.type, refusalType(route.wire, "quota"));
    assert.match(error.message, /held by 1 request in flight/);
    const during = (await (await gov.get("/v1/usage", key.secret)).json()).budget;
    assert.ok(Math.abs(during.in_flight_usd - reservation) < 2e-6, "the hold is the reservation");

    leaving.abort();
    await reader.cancel().catch(() => {});
    assert.ok(await until(() => gov.upstream.aborted > abortedBefore), "upstream closed");
    assert.ok(await until(() => gov.rows(key.id).length === 2));
    const row = gov.rows(key.id).find((r) => r.outcome !== "rejected")!;
    assert.equal(row.outcome, "client_disconnect");
    assert.ok(row.outputTokens >= tokensOf("You said: alpha"), "what was delivered is billed");
    assert.ok(row.inputTokens > 0 && row.cost > 0);

    // Released: nothing in flight, the spend is the row's, and the second request now fits.
    const after = (await (await gov.get("/v1/usage", key.secret)).json()).budget;
    assert.equal(after.in_flight_usd, 0);
    assert.ok(Math.abs(after.spent_usd - row.cost) < 2e-6, `${after.spent_usd} ≈ ${row.cost}`);
    const fits = await gov.send(route.wire, key.secret, second);
    assert.equal(fits.status, 200);
    await fits.body?.cancel();
  });
}

Deno.test("budget edges: close", async () => {
  gov.upstream.release();
  await gov.close();
});
