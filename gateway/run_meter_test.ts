import assert from "node:assert/strict";
import { GatewayError } from "../core/errors.ts";
import { emptyUsage } from "../core/response.ts";
import { upstreamCodec } from "../protocols/registry.ts";
import { createMeter } from "./meter.ts";
import { runMeter } from "./run_meter.ts";

const QUOTA = new GatewayError("quota", 429, "Budget reached.", { code: "insufficient_quota" });

/** A run meter of `wire` at $1 a token whose watch refuses at `limit` dollars (quiet below). */
function meterOf(wire: "openai_chat" | "anthropic_messages" | "openai_responses", limit: number) {
  const seen = { asked: [] as number[], ended: false };
  const meter = createMeter({
    admission: {
      release: () => {},
      watch: (flowing) => (seen.asked.push(flowing.cost), flowing.cost >= limit ? QUOTA : null),
      quiet: (cost) => cost < limit,
    },
    flowing: (outputTokens) => ({ usage: { ...emptyUsage(), outputTokens }, cost: outputTokens }),
    ended: () => seen.ended,
    refused: () => void (seen.ended = true),
  });
  return { meter, seen, run: runMeter(upstreamCodec(wire, { providerName: "p" }), meter) };
}

const chunk = (delta: unknown) => `data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`;

Deno.test("runMeter: a run under the budget is metered whole; the one reaching it cut after its event", () => {
  const { meter, seen, run } = meterOf("openai_chat", 5);
  assert.equal(run(chunk({ content: " alpha" }) + chunk({ content: " bravo" })), -1);
  assert.deepEqual(seen.asked, [], "quiet: the watch is not asked");
  // The 5th token is the second piece of the second event, which also holds a third piece.
  const events = [
    chunk({ content: " delta" }),
    chunk({ reasoning_content: " echo", content: " golf", reasoning: " hotel" }),
    chunk({ content: " india" }),
    "data: [DONE]\n\n",
  ];
  const text = events.join("");
  assert.equal(run(text), events[0]!.length + events[1]!.length, "just past the reaching event");
  assert.deepEqual(seen.asked, [3, 4, 5]);
  assert.equal(meter.tokens(), 6, "the rest of that event reached the client: counted");
});

Deno.test("runMeter: a run the scan gives up on is parsed event by event, with the same cut", () => {
  const { seen, run } = meterOf("openai_chat", 2);
  // Data on two lines: JSON the scan does not read exactly.
  const split = 'data: {"choices":[{"index":0,"delta":\ndata: {"content":" bravo"}}]}\n\n';
  const text = chunk({ content: " alpha" }) + split + chunk({ content: " delta" });
  assert.equal(run(text), chunk({ content: " alpha" }).length + split.length);
  assert.deepEqual(seen.asked, [1, 2]);
});

Deno.test("runMeter: named wires, and their nameless events parsed one by one", () => {
  const typed = (type: string, payload: Record<string, unknown>, named = true) =>
    `${named ? `event: ${type}\n` : ""}data: ${JSON.stringify({ type, ...payload })}\n\n`;
  const messages = meterOf("anthropic_messages", 3);
  const block = (text: string) =>
    typed("content_block_delta", { index: 0, delta: { type: "text_delta", text } });
  const text = typed("ping", {}) + block(" alpha") + block(" bravo") + block(" delta") +
    typed("content_block_stop", { index: 0 });
  assert.equal(messages.run(text), text.length - typed("content_block_stop", { index: 0 }).length);
  const responses = meterOf("openai_responses", 2);
  const delta = (d: string, named = true) =>
    typed("response.output_text.delta", { delta: d, sequence_number: 1 }, named);
  // A nameless event: the scan gives up, the events are parsed; the second token reaches $2.
  const run = delta(" alpha", false) + delta(" bravo") + delta(" delta");
  assert.equal(responses.run(run), run.length - delta(" delta").length);
  assert.deepEqual(responses.seen.asked, [1, 2]);
});
