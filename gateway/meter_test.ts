import assert from "node:assert/strict";
import { countTokens } from "gpt-tokenizer";
import { GatewayError } from "../core/errors.ts";
import { emptyUsage } from "../core/response.ts";
import { addText, type RunText, runText } from "../protocols/output_scan.ts";
import type { Admission } from "./admission.ts";
import {
  createMeter,
  MAX_UNCOUNTED_BYTES,
  meteredUsage,
  outputTokensOf,
  utf8Bound,
} from "./meter.ts";

const QUOTA = new GatewayError("quota", 429, "Budget reached.", { code: "insufficient_quota" });

/** A meter whose cost is $1 a token, and whose budget watch refuses at `limit` dollars; quiet
 * (when `quiet`) below min(limit, `reservation`), as a held admission is. Records what it saw. */
function metered(limit: number, options: { quiet?: boolean; reservation?: number } = {}) {
  const seen = { asked: [] as number[], quietAsked: [] as number[], refused: 0, ended: false };
  const reservation = options.reservation ?? Infinity;
  const admission: Admission = {
    release: () => {},
    watch: (flowing) => {
      seen.asked.push(flowing.cost);
      return flowing.cost >= limit ? QUOTA : null;
    },
    ...(options.quiet === false ? {} : {
      quiet: (cost: number) => {
        seen.quietAsked.push(cost);
        return cost < limit && cost <= reservation;
      },
    }),
  };
  const meter = createMeter({
    admission,
    flowing: (outputTokens) => ({ usage: { ...emptyUsage(), outputTokens }, cost: outputTokens }),
    ended: () => seen.ended,
    refused: (error) => {
      assert.equal(error, QUOTA);
      seen.refused++;
      seen.ended = true;
    },
  });
  return { meter, seen };
}

function run(...texts: string[]): RunText {
  const into = runText();
  texts.forEach((text, i) => addText(into, text, i));
  return into;
}

/** Words of one o200k token each. */
const WORDS = [" alpha", " bravo", " delta", " echo", " golf", " hotel", " india", " kilo"];

Deno.test("meter: while quiet at the byte bound, nothing is counted or asked; tokens() counts", () => {
  const { meter, seen } = metered(1000);
  assert.equal(meter.deliveredRun(run(...WORDS.slice(0, 4))), -1);
  assert.equal(meter.delivered(" golf"), false);
  assert.deepEqual(seen.asked, [], "the watch is not asked");
  // The bound: bytes of the text (6 + 6 + 6 + 5, then + 5).
  assert.deepEqual(seen.quietAsked, [23, 28]);
  assert.equal(meter.tokens(), 5, "counted delta by delta when asked for");
});

Deno.test("meter: a run that would reach the budget is asked piece by piece, cut on the exact one", () => {
  const { meter, seen } = metered(6);
  assert.equal(meter.deliveredRun(run(...WORDS.slice(0, 2))), -1, "12 bytes: 2 tokens, quiet");
  // Bound 2 + 30 bytes is not quiet; counted: 7 tokens at the run's end, not quiet either.
  assert.equal(meter.deliveredRun(run(...WORDS.slice(2, 7))), 3, "the 6th token reached $6");
  assert.deepEqual(seen.asked, [3, 4, 5, 6], "asked after each piece, up to the one that reached");
  assert.equal(seen.refused, 1);
  // What the caller forwards with the cut event is told as delivered: counted, not asked.
  assert.equal(meter.delivered(" kilo"), false);
  assert.deepEqual(seen.asked, [3, 4, 5, 6]);
  assert.equal(meter.tokens(), 7);
});

Deno.test("meter: a run quiet at its exact count (not at the bound) asks the watch nothing", () => {
  const { meter, seen } = metered(10);
  // 3 one-token words of 3 bytes each past ASCII bound at 9 each: 27 > 10, exact 3 < 10.
  const words = ["日本", "東京", "京都"];
  assert.ok(words.every((word) => countTokens(word) === 1));
  assert.equal(meter.deliveredRun(run(...words)), -1);
  assert.deepEqual(seen.asked, []);
  assert.equal(meter.tokens(), 3);
});

Deno.test("meter: past the reservation the watch is asked (the hold must grow), once quiet is over", () => {
  const { meter, seen } = metered(100, { reservation: 3 });
  assert.equal(meter.deliveredRun(run(" alpha", " bravo", " delta")), -1, "3 tokens: quiet");
  assert.deepEqual(seen.asked, []);
  assert.equal(meter.deliveredRun(run(" echo", " golf")), -1);
  assert.deepEqual(seen.asked, [4, 5], "each piece's cost recorded");
});

Deno.test("meter: without a quiet test every delta is asked about, as before", () => {
  const { meter, seen } = metered(3, { quiet: false });
  assert.equal(meter.delivered(" alpha"), false);
  assert.equal(meter.deliveredRun(run(" bravo", " delta", " echo")), 1);
  assert.deepEqual(seen.asked, [1, 2, 3]);
});

Deno.test("meter: after the stream ended, text is counted and never asked about", () => {
  const { meter, seen } = metered(1, { quiet: false });
  seen.ended = true;
  assert.equal(meter.delivered(" alpha"), false);
  assert.equal(meter.deliveredRun(run(" bravo", " delta")), -1);
  assert.deepEqual(seen.asked, []);
  assert.equal(meter.tokens(), 3);
});

Deno.test("meter: at most MAX_UNCOUNTED_BYTES stay uncounted, even when always quiet", () => {
  const { meter, seen } = metered(Infinity);
  const piece = " alpha".repeat(100); // 600 bytes, 100 tokens
  assert.ok(6 * 600 <= MAX_UNCOUNTED_BYTES && 7 * 600 > MAX_UNCOUNTED_BYTES);
  for (let i = 0; i < 10; i++) meter.delivered(piece);
  // Six pieces kept at their bound; the seventh passes the cap: all seven counted (700 tokens),
  // quiet at that exact count; then three more kept on top of it.
  const bounds = [600, 1200, 1800, 2400, 3000, 3600];
  assert.deepEqual(seen.quietAsked, [...bounds, 700, ...bounds.slice(0, 3).map((b) => b + 700)]);
  assert.deepEqual(seen.asked, []);
  assert.equal(meter.tokens(), 1000);
});

Deno.test("outputTokensOf: text spelling a special token is counted as text; utf8Bound bounds it", () => {
  assert.throws(() => countTokens("<|endoftext|>"), "the tokenizer refuses it by default");
  const samples = ["<|endoftext|> and <|fim_prefix|>", "Hé 😀 日本語", "\ud83d", "a".repeat(100)];
  for (const text of samples) {
    const tokens = outputTokensOf(text);
    assert.ok(tokens > 0);
    assert.ok(tokens <= new TextEncoder().encode(text).length, text);
    assert.ok(new TextEncoder().encode(text).length <= utf8Bound(text), text);
  }
  assert.equal(outputTokensOf(""), 0);
});

Deno.test("meteredUsage: at least the metered output, and the input estimate where none was said", () => {
  const usage = { ...emptyUsage(), outputTokens: 9 };
  assert.deepEqual(meteredUsage(usage, 4, 100), { ...usage, inputTokens: 100 });
  assert.deepEqual(meteredUsage({ ...usage, inputTokens: 7 }, 12, 100), {
    ...usage,
    inputTokens: 7,
    outputTokens: 12,
  });
  assert.equal(usage.inputTokens, 0, "the usage given is not changed");
});
