import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import { GatewayError } from "../../core/errors.ts";
import type { StreamPart } from "../../core/stream.ts";
import { SSE_HEADERS } from "../../sse/encode_sse.ts";
import { decodeResponse } from "./decode_response.ts";
import { encodeResponse } from "./encode_response.ts";
import { encodeStream } from "./encode_stream.ts";
import {
  coreRequest,
  decodeEvents,
  encodeContext,
  fixtureEvents,
  fixtureJson,
  fixtureNames,
} from "./testing.ts";

/** An SDK client whose every request is answered by `answer` (no network). */
function client(answer: () => Response): Anthropic {
  return new Anthropic({
    apiKey: "test-key",
    baseURL: "http://gatehouse.test",
    maxRetries: 0,
    fetch: (_input: string | URL | Request, init?: RequestInit) => {
      if (init?.body) JSON.parse(String(init.body));
      return Promise.resolve(answer());
    },
  });
}

/** The SSE response our client encoder writes for `parts`. */
function sseResponse(parts: StreamPart[]): Response {
  const body = ReadableStream.from(parts).pipeThrough(encodeStream(encodeContext({}, "claude-gw")));
  return new Response(body, { headers: SSE_HEADERS });
}

const params = {
  model: "claude-gw",
  max_tokens: 1024,
  messages: [{ role: "user" as const, content: "hi" }],
};

for (const name of fixtureNames(".chunks.txt")) {
  Deno.test(`@anthropic-ai/sdk finalMessage() accepts our stream for ${name}`, async () => {
    const parts = await decodeEvents(fixtureEvents(name));
    const sdk = client(() => sseResponse(parts));
    const message = await sdk.messages.stream(params).finalMessage();
    assert.equal(message.model, "claude-gw");
    const raw = fixtureEvents(name).map((e) => JSON.parse(e.data) as Record<string, unknown>);
    const delta = raw.find((e) => e.type === "message_delta")!.delta as { stop_reason: string };
    assert.equal(message.stop_reason, delta.stop_reason);
    const texts = raw
      .filter((e) => (e.delta as { type?: string } | undefined)?.type === "text_delta")
      .map((e) => (e.delta as { text: string }).text)
      .join("");
    const got = message.content
      .filter((b) => b.type === "text")
      .map((b) => (b as { text: string }).text)
      .join("");
    assert.equal(got, texts);
    for (const block of message.content) {
      if (block.type === "tool_use") assert.equal(typeof block.input, "object");
    }
  });
}

Deno.test("@anthropic-ai/sdk sees thinking, signature and tool input from our stream", async () => {
  const parts = await decodeEvents(fixtureEvents("anthropic-clear-thinking.1.chunks.txt"));
  const message = await client(() => sseResponse(parts)).messages.stream(params).finalMessage();
  const thinking = message.content[0];
  assert.equal(thinking?.type, "thinking");
  if (thinking?.type === "thinking") {
    assert.match(thinking.thinking, /^The previous result was 925\./);
    assert.match(thinking.signature, /^EvQBCkYICxgC/);
  }
  const toolParts = await decodeEvents(fixtureEvents("anthropic-json-tool.1.chunks.txt"));
  const tool = await client(() => sseResponse(toolParts)).messages.stream(params).finalMessage();
  assert.deepEqual(tool.content[0]?.type === "tool_use" && tool.content[0].input, {
    elements: [{ location: "San Francisco", temperature: 58, condition: "sunny" }],
  });
  assert.equal(tool.usage.input_tokens, 849);
  assert.equal(tool.usage.output_tokens, 47);
});

Deno.test("@anthropic-ai/sdk rejects with the error type of an error part", async () => {
  const parts: StreamPart[] = [
    { type: "start", id: "x", model: "m", created: 0 },
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, text: "partial" },
    { type: "error", error: new GatewayError("overloaded", 503, "Provider is overloaded") },
  ];
  const stream = client(() => sseResponse(parts)).messages.stream(params);
  await assert.rejects(stream.finalMessage(), (err: unknown) => {
    assert.ok(err instanceof Anthropic.APIError);
    assert.equal((err.error as { error: { type: string } }).error.type, "overloaded_error");
    return true;
  });
});

Deno.test("@anthropic-ai/sdk messages.create() reads our non-streamed body", async () => {
  const body = fixtureJson("anthropic-clear-thinking.1.json");
  const { value } = decodeResponse(body, coreRequest(), "anthropic");
  const { value: encoded } = encodeResponse(value, encodeContext({}, "claude-gw"));
  const sdk = client(() => Response.json(encoded));
  const message = await sdk.messages.create(params);
  assert.equal(message.model, "claude-gw");
  assert.deepEqual(message.content, (body as { content: unknown }).content);
});

Deno.test("@anthropic-ai/sdk reads the refusal's stop_details from our stream and body", async () => {
  const recorded = fixtureJson("anthropic-refusal.json") as {
    stop_details: { category: string; explanation: string };
  };
  const { category, explanation } = recorded.stop_details;
  const parts = await decodeEvents(fixtureEvents("anthropic-refusal.chunks.txt"));
  const streamed = await client(() => sseResponse(parts)).messages.stream(params).finalMessage();
  assert.equal(streamed.stop_reason, "refusal");
  assert.deepEqual(streamed.stop_details, { type: "refusal", category, explanation });
  const { value } = decodeResponse(recorded, coreRequest(), "anthropic");
  const { value: encoded } = encodeResponse(value, encodeContext({}, "claude-gw"));
  const created = await client(() => Response.json(encoded)).messages.create(params);
  assert.deepEqual(created.stop_details, { type: "refusal", category, explanation });
});
