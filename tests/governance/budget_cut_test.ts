/**
 * Budgets are hard caps under concurrency, on every client protocol, passthrough and
 * translated: 20 streams at once under one small budget, against an upstream that streams many
 * words slowly enough that they all overlap (five to a network chunk). The ledger's spend stays
 * within the budget plus one streamed delta per stream in flight; the cut streams end with the
 * protocol's terminal error, their upstream request is closed, what they delivered is billed
 * (outcome `budget_cut`); and the next request is refused with 429 in the route's envelope,
 * naming the budget, the spend and the reset, with a retry-after.
 */
import assert from "node:assert/strict";
import { expectedUse } from "../../governance/estimate.ts";
import {
  bodyFor,
  envelopeOf,
  PATH,
  readStream,
  refusalType,
  ROUTES,
  spentIn,
  startGov,
  type StreamRead,
  tokensOf,
  until,
  words,
} from "./gov_kit.ts";

const STREAMS = 20;
/** Words the upstream streams per answer: one event each (plus "You said:"). */
const WORDS = 150;
/** The output limit asked: far below what the upstream streams, as a 128k-token agent request
 * outgrows its capped 4096-token reservation. */
const ASKED = 8;

/** Events per network chunk: a busy connection brings several at once; a cut stream must not
 * deliver (unbilled) the rest of the read its cut came in. */
const EVENTS_PER_CHUNK = 5;
// A chunk every 4 ms: a whole answer takes ~120 ms, so the 20 streams overlap.
const gov = await startGov({ pace: { delayMs: 4, eventsPerChunk: EVENTS_PER_CHUNK } });

for (const route of ROUTES) {
  Deno.test(`${route.name}: ${STREAMS} concurrent streams under a budget stop at it`, async () => {
    const body = bodyFor(route.wire, route.model, {
      stream: true,
      text: words(WORDS),
      maxTokens: ASKED,
    });
    const model = gov.h.deps.catalog.resolve(route.model)!;
    const bytes = new TextEncoder().encode(JSON.stringify(body)).length;
    const reservation = expectedUse(model, PATH[route.wire], body, bytes).reservationUsd;
    // Room for every stream's reservation, a fraction of what they would stream in full.
    const budget = Math.round(reservation * STREAMS * 1.5 * 1e6) / 1e6;
    const key = await gov.key({ budgetUsd: budget, budgetPeriod: "month" });
    const abortedBefore = gov.upstream.aborted;

    const responses = await Promise.all(
      Array.from({ length: STREAMS }, () => gov.send(route.wire, key.secret, body)),
    );
    const admitted = responses.filter((r) => r.status === 200);
    for (const r of responses) if (r.status !== 200) await r.body?.cancel();
    assert.equal(admitted.length, STREAMS, "every reservation fits: all streams start");
    const ids = admitted.map((r) => r.headers.get("x-request-id"));
    const reads: StreamRead[] = await Promise.all(admitted.map((r) => readStream(route.wire, r)));
    assert.ok(await until(() => gov.rows(key.id).length === STREAMS), "one row per stream");
    const rows = gov.rows(key.id);

    // The cap: spend ≤ budget + one streamed delta (a one-token word) per stream in flight,
    // however many deltas an upstream read brings: the rest of a read is not forwarded.
    const price = model.pricing.output ?? 0;
    const wordTokens = Math.max(...words(10).split(" ").map((w) => tokensOf(` ${w}`)));
    const chunkUsd = (wordTokens * price) / 1e6;
    const spent = spentIn(rows);
    const bound = budget + STREAMS * chunkUsd;
    console.log(
      `${route.name}: budget $${budget.toFixed(6)}, spent $${spent.toFixed(6)} ` +
        `(overshoot $${Math.max(0, spent - budget).toFixed(6)}, bound $${
          (STREAMS * chunkUsd).toFixed(6)
        })`,
    );
    assert.ok(spent <= bound + 1e-9, `spent ${spent} ≤ ${bound}`);
    assert.ok(spent >= budget * 0.9, `the budget was used (spent ${spent} of ${budget})`);

    // Cut streams: the protocol's terminal error, never a clean end; outcome budget_cut.
    const cut = reads.filter((r) => r.ending === "error");
    assert.ok(cut.length >= STREAMS / 2, `most streams were cut (${cut.length})`);
    for (const read of reads) assert.notEqual(read.ending, "none");
    for (const read of cut) {
      assert.equal(
        read.errorType,
        route.wire === "messages" ? "rate_limit_error" : "insufficient_quota",
      );
      assert.match(read.errorMessage!, /Budget reached for this key/);
    }
    const cutRows = rows.filter((row) => row.outcome === "budget_cut");
    assert.equal(cutRows.length, cut.length, "a budget_cut row per cut stream");
    assert.equal(rows.filter((row) => row.outcome === "ok").length, STREAMS - cut.length);
    // What was delivered is billed: each stream's row counts at least the tokens its client got.
    reads.forEach((read, i) => {
      const row = rows.find((r) => r.requestId === ids[i])!;
      assert.ok(row, "the row carries the request id the client was sent");
      if (read.ending !== "error") return;
      assert.equal(row.outcome, "budget_cut");
      assert.equal(row.status, 200);
      assert.ok(tokensOf(read.text) > 0, "the cut stream delivered text first");
      assert.ok(
        row.outputTokens >= tokensOf(read.text),
        `billed ${row.outputTokens} ≥ delivered ${tokensOf(read.text)} output tokens`,
      );
      assert.ok(row.cost > 0);
    });
    // The upstream requests of the cut streams were closed.
    assert.ok(
      await until(() => gov.upstream.aborted - abortedBefore >= cut.length),
      `upstream closed for each cut stream (${
        gov.upstream.aborted - abortedBefore
      } of ${cut.length})`,
    );

    // The next request: 429 in the route's envelope, naming budget, spend and reset.
    const next = await gov.send(route.wire, key.secret, { ...body, stream: false });
    assert.equal(next.status, 429);
    const error = envelopeOf(route.wire, await next.json());
    assert.equal(error.type, refusalType(route.wire, "quota"));
    if (route.wire !== "messages") assert.equal(error.code, "insufficient_quota");
    assert.match(error.message, /Budget exceeded for this key/);
    assert.ok(error.message.includes(`$${budget}`) || error.message.includes(budget.toFixed(6)));
    assert.match(error.message, /\$[0-9.]+ spent this period/);
    assert.match(error.message, /resets at \d{4}-\d{2}-01T00:00:00Z/);
    const retry = Number(next.headers.get("retry-after"));
    const now = new Date();
    const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    assert.ok(Math.abs(retry - (monthEnd - Date.now()) / 1000) < 5, `retry-after ${retry} s`);
  });
}

Deno.test("budget cut: close", async () => {
  await gov.close();
});
