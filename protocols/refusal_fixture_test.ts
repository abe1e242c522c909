import { chainSteps, stepStream } from "../core/step.ts";
/**
 * The recorded Anthropic refusal (`stop_details` with a category and an explanation, no content
 * blocks), streamed and not, decoded by the Anthropic upstream codec and encoded by every client
 * codec: each client sees the explanation in its own refusal field.
 */
import assert from "node:assert/strict";
import type { CoreRequest, Wire } from "../core/request.ts";
import type { StreamPart } from "../core/stream.ts";
import { parseSse, type SseEvent } from "../sse/parse_sse.ts";
import { utf8Step } from "../sse/encode_sse.ts";
import type { EncodeContext } from "./codec.ts";
import { clientCodec, upstreamCodec } from "./registry.ts";

const FIXTURES = new URL("../../shared/fixtures/recorded/anthropic-messages/", import.meta.url);

const recorded = JSON.parse(
  await Deno.readTextFile(new URL("anthropic-refusal.json", FIXTURES)),
) as { stop_details: { category: string; explanation: string } };
const { category, explanation } = recorded.stop_details;

const events: SseEvent[] =
  (await Deno.readTextFile(new URL("anthropic-refusal.chunks.txt", FIXTURES)))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((data) => ({ event: (JSON.parse(data) as { type: string }).type, data }));

const upstream = upstreamCodec("anthropic_messages", { providerName: "anthropic" });

function context(source: Wire): EncodeContext {
  const request: CoreRequest = {
    model: "claude-fable-5",
    system: [],
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    tools: [],
    stream: false,
    source,
  };
  return { clientModel: "client-model", request };
}

/** The non-streamed fixture as `wire`'s client body. */
function body(wire: Wire): Record<string, unknown> {
  const decoded = upstream.decodeResponse(recorded, context(wire).request);
  return clientCodec(wire).encodeResponse(decoded.value, context(wire)).value as Record<
    string,
    unknown
  >;
}

/** The streamed fixture as `wire`'s client events (JSON data; chat's `[DONE]` left out). */
async function stream(wire: Wire): Promise<Array<Record<string, unknown>>> {
  const parts: StreamPart[] = await Array.fromAsync(
    ReadableStream.from(events).pipeThrough(
      stepStream(upstream.decodeStream(context(wire).request)),
    ),
  );
  const sse = await Array.fromAsync(
    ReadableStream.from(parts)
      .pipeThrough(
        stepStream(chainSteps(clientCodec(wire).encodeStream(context(wire)), utf8Step())),
      )
      .pipeThrough(parseSse()),
  );
  return sse.filter((e) => e.data !== "[DONE]").map((e) => JSON.parse(e.data));
}

Deno.test("anthropic-refusal → Messages: stop_details in the body and message_delta", async () => {
  const message = body("anthropic_messages");
  assert.equal(message.stop_reason, "refusal");
  assert.deepEqual(message.stop_details, { type: "refusal", category, explanation });
  const delta = (await stream("anthropic_messages")).find((e) => e.type === "message_delta");
  assert.deepEqual((delta?.delta as Record<string, unknown>).stop_details, {
    type: "refusal",
    category,
    explanation,
  });
});

Deno.test("anthropic-refusal → chat: message.refusal, and a delta.refusal chunk", async () => {
  const choice = (body("openai_chat").choices as Array<Record<string, unknown>>)[0]!;
  assert.equal((choice.message as { refusal: string }).refusal, explanation);
  assert.equal(choice.finish_reason, "content_filter");
  const deltas = (await stream("openai_chat")).flatMap((
    chunk,
  ) => (chunk.choices as Array<{ delta: Record<string, unknown>; finish_reason: string | null }>));
  const at = deltas.findIndex((c) => c.delta.refusal === explanation);
  assert.ok(at > 0, "a delta.refusal chunk");
  assert.equal(deltas[at + 1]?.finish_reason, "content_filter", "right before the finish chunk");
});

Deno.test("anthropic-refusal → Responses: a refusal part, and refusal events", async () => {
  const output = body("openai_responses").output as Array<{ type: string; content: unknown[] }>;
  assert.deepEqual(output.map((item) => [item.type, item.content]), [
    ["message", [{ type: "refusal", refusal: explanation }]],
  ]);
  const streamed = await stream("openai_responses");
  const done = streamed.find((e) => e.type === "response.refusal.done");
  assert.equal(done?.refusal, explanation);
  const deltas = streamed.filter((e) => e.type === "response.refusal.delta").map((e) => e.delta);
  assert.equal(deltas.join(""), explanation);
  const completed = streamed.at(-1)!;
  assert.equal(completed.type, "response.completed");
  const final = (completed.response as { output: typeof output }).output;
  assert.deepEqual(final.map((item) => [item.type, item.content]), [
    ["message", [{ type: "refusal", refusal: explanation }]],
  ]);
});
