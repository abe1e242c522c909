/**
 * The recorded openai-chat transcripts (OpenAI, DeepSeek, xAI) through the upstream decoders,
 * and back out through the client encoders: what a chat client would receive.
 */
import assert from "node:assert/strict";
import type { StreamPart } from "../../core/stream.ts";
import type { EncodeContext } from "../codec.ts";
import { decodeResponse } from "./decode_response.ts";
import { decodeStream } from "./decode_stream.ts";
import { encodeResponse } from "./encode_response.ts";
import { encodeStream } from "./encode_stream.ts";
import { sdkCompletion, sdkFinalCompletion } from "./sdk_check.ts";
import {
  coreRequest,
  fixtureEvents,
  fixtureJson,
  joined,
  ofType,
  pipe,
  sseOf,
} from "./test_support.ts";

const request = coreRequest({
  stream: true,
  includeStreamUsage: true,
  tools: [{ type: "function", name: "weather", parameters: { type: "object" } }],
});
const ctx: EncodeContext = { clientModel: "client-model", request };

/** Text and reasoning read straight from a transcript, independent of the decoder. */
async function transcript(name: string) {
  let text = "";
  let reasoning = "";
  for (const event of await fixtureEvents(name)) {
    if (event.data === "[DONE]") continue;
    for (const choice of JSON.parse(event.data).choices) {
      text += choice.delta.content ?? "";
      reasoning += choice.delta.reasoning_content ?? "";
    }
  }
  return { text, reasoning };
}

async function decodeFixture(name: string): Promise<StreamPart[]> {
  return await pipe(await fixtureEvents(name), decodeStream(request, "fixture"));
}

/** Checks block bookkeeping: indices contiguous from 0 in start order, each started block
 * ended once, before `finish`, which comes last. */
function assertWellFormed(parts: StreamPart[]) {
  const starts = parts.filter((p) => p.type.endsWith("_start") && p.type !== "start");
  assert.deepEqual(starts.map((p) => (p as { index: number }).index), starts.map((_, i) => i));
  const ends = parts.filter((p) => p.type.endsWith("_end"));
  assert.equal(ends.length, starts.length);
  assert.equal(parts[0]?.type, "start");
  assert.equal(parts.at(-1)?.type, "finish");
}

Deno.test("fixture openai-text.chunks.txt decodes to text, end_turn and usage", async () => {
  const parts = await decodeFixture("openai-text.chunks.txt");
  assertWellFormed(parts);
  const expected = await transcript("openai-text.chunks.txt");
  assert.equal(joined(parts, "text_delta"), expected.text);
  assert.ok(expected.text.startsWith("**Holiday Name:** Harmony Day"));
  assert.equal(ofType(parts, "reasoning_start").length, 0);
  assert.deepEqual(parts.at(-1), {
    type: "finish",
    stopReason: "end_turn",
    usage: {
      inputTokens: 16,
      outputTokens: 300,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    },
  });
  assert.deepEqual(parts[0], {
    type: "start",
    id: "chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0",
    model: "gpt-4.1-nano-2025-04-14",
    created: 1770933892,
  });
});

Deno.test("fixture deepseek-tool-call.chunks.txt decodes reasoning_content and a streamed tool call", async () => {
  const parts = await decodeFixture("deepseek-tool-call.chunks.txt");
  assertWellFormed(parts);
  const expected = await transcript("deepseek-tool-call.chunks.txt");
  assert.equal(joined(parts, "reasoning_delta"), expected.reasoning);
  assert.ok(expected.reasoning.startsWith("The user is asking for the weather in San Francisco."));
  assert.equal(joined(parts, "text_delta"), "");
  assert.deepEqual(ofType(parts, "tool_call_start"), [{
    type: "tool_call_start",
    index: 1,
    id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF",
    name: "weather",
    kind: "function",
  }]);
  const args = ofType(parts, "tool_call_delta").map((p) => p.delta).join("");
  assert.deepEqual(JSON.parse(args), { location: "San Francisco" });
  assert.deepEqual(parts.at(-1), {
    type: "finish",
    stopReason: "tool_use",
    usage: {
      inputTokens: 339,
      outputTokens: 83,
      cacheReadTokens: 320,
      cacheWriteTokens: 0,
      reasoningTokens: 39,
    },
  });
});

Deno.test("fixture xai-tool-call.chunks.txt decodes reasoning, a one-chunk tool call and xAI usage", async () => {
  const parts = await decodeFixture("xai-tool-call.chunks.txt");
  assertWellFormed(parts);
  const expected = await transcript("xai-tool-call.chunks.txt");
  assert.equal(joined(parts, "reasoning_delta"), expected.reasoning);
  assert.ok(expected.reasoning.startsWith("First, the user is asking about the weather"));
  const [start] = ofType(parts, "tool_call_start");
  assert.equal(start?.id, "call_79382389");
  assert.equal(start?.name, "weather");
  assert.equal(
    ofType(parts, "tool_call_delta").map((p) => p.delta).join(""),
    '{"location":"San Francisco"}',
  );
  assert.deepEqual(parts.at(-1), {
    type: "finish",
    stopReason: "tool_use",
    // 26 completion + 227 reasoning: xAI counts reasoning outside completion_tokens.
    usage: {
      inputTokens: 307,
      outputTokens: 253,
      cacheReadTokens: 306,
      cacheWriteTokens: 0,
      reasoningTokens: 227,
    },
  });
});

for (const name of ["openai-text", "deepseek-tool-call", "xai-tool-call"]) {
  Deno.test(`fixture ${name}.chunks.txt round-trips through encodeStream to a valid chat stream`, async () => {
    const parts = await decodeFixture(`${name}.chunks.txt`);
    const bytes = await pipe(parts, encodeStream(ctx));
    const events = await sseOf(bytes);
    assert.equal(events.at(-1)?.data, "[DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    assert.equal(chunks[0].choices[0].delta.role, "assistant");
    assert.deepEqual(chunks.at(-1).choices, []);
    assert.ok(chunks.at(-1).usage);
    assert.ok(
      chunks.every((c) => c.model === "client-model" && c.object === "chat.completion.chunk"),
    );
    const toolIndices = chunks.flatMap((c) =>
      (c.choices[0]?.delta?.tool_calls ?? []).map((t: { index: number }) => t.index)
    );
    assert.ok(toolIndices.every((i) => i === 0), "one tool call at chat index 0");

    // Chat → chat: decoding our own stream gives back the same content.
    const again = await pipe(events, decodeStream(request, "self"));
    assert.equal(joined(again, "text_delta"), joined(parts, "text_delta"));
    assert.equal(joined(again, "reasoning_delta"), joined(parts, "reasoning_delta"));
    const calls = (ps: StreamPart[]) =>
      ofType(ps, "tool_call_start").map((s) => ({
        id: s.id,
        name: s.name,
        args: ofType(ps, "tool_call_delta").filter((d) => d.index === s.index).map((d) => d.delta)
          .join(""),
      }));
    assert.deepEqual(calls(again), calls(parts));
    assert.deepEqual(again.at(-1), parts.at(-1));

    // The strictest client accepts it.
    const completion = await sdkFinalCompletion(bytes, { includeUsage: true });
    const message = completion.choices[0]!.message;
    assert.equal(message.content ?? "", joined(parts, "text_delta"));
    assert.deepEqual(
      (message.tool_calls ?? []).map((t) =>
        t.type === "function" ? [t.id, t.function.arguments] : []
      ),
      calls(parts).map((c) => [c.id, c.args]),
    );
  });
}

Deno.test("fixture openai-text.json decodes and re-encodes", async () => {
  const { value } = decodeResponse(await fixtureJson("openai-text.json"), request, "fixture");
  assert.equal(value.id, "chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU");
  assert.equal(value.content.length, 1);
  assert.ok(
    value.content[0]?.type === "text" &&
      value.content[0].text.startsWith("**Holiday Name:** Galaxy Day"),
  );
  assert.equal(value.stopReason, "end_turn");
  assert.deepEqual(value.usage, {
    inputTokens: 16,
    outputTokens: 363,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  });
  const completion = await sdkCompletion(encodeResponse(value, ctx).value);
  assert.equal(completion.choices[0]!.finish_reason, "stop");
  assert.equal(completion.usage?.completion_tokens, 363);
});

Deno.test("fixture deepseek-tool-call.json decodes reasoning, an empty content and a tool call", async () => {
  const { value } = decodeResponse(
    await fixtureJson("deepseek-tool-call.json"),
    request,
    "fixture",
  );
  assert.deepEqual(value.content.map((p) => p.type), ["reasoning", "tool_call"]);
  assert.deepEqual(value.content[1], {
    type: "tool_call",
    id: "call_00_9V0vrf86Pc9aelHCJMZqnJBo",
    name: "weather",
    arguments: '{"location": "San Francisco"}',
    kind: "function",
  });
  assert.equal(value.stopReason, "tool_use");
  assert.deepEqual(value.usage, {
    inputTokens: 339,
    outputTokens: 92,
    cacheReadTokens: 320,
    cacheWriteTokens: 0,
    reasoningTokens: 48,
  });
  const body = encodeResponse(value, ctx).value;
  assert.equal(body.choices[0].message.content, null);
  assert.ok(body.choices[0].message.reasoning_content?.startsWith("The user is asking"));
});

Deno.test("fixture xai-tool-call.json decodes with xAI's usage arithmetic", async () => {
  const { value } = decodeResponse(await fixtureJson("xai-tool-call.json"), request, "fixture");
  assert.deepEqual(value.content.map((p) => p.type), ["reasoning", "tool_call"]);
  assert.equal(value.stopReason, "tool_use");
  assert.equal(value.usage.outputTokens, 26 + 255);
  assert.equal(value.usage.reasoningTokens, 255);
  assert.equal(value.usage.cacheReadTokens, 244);
  const completion = await sdkCompletion(encodeResponse(value, ctx).value);
  const call = completion.choices[0]!.message.tool_calls?.[0];
  assert.ok(
    call?.type === "function" && call.function.arguments === '{"location":"San Francisco"}',
  );
});
