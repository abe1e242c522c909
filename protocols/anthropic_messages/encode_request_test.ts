import assert from "node:assert/strict";
import { encodeRequest } from "./encode_request.ts";
import { coreRequest } from "./testing.ts";
import type { WireRequest } from "./wire.ts";

const hello = [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }];

Deno.test("encodeRequest builds the body with every translatable field", () => {
  const { value, warnings } = encodeRequest(coreRequest({
    model: "claude-sonnet-4-5",
    system: [{ type: "text", text: "sys" }],
    messages: hello,
    maxOutputTokens: 2000,
    temperature: 0.5,
    topP: 0.9,
    topK: 20,
    stop: ["STOP"],
    user: "u1",
    stream: true,
    tools: [{ type: "function", name: "f", parameters: { type: "object" } }],
    toolChoice: { type: "required" },
    responseFormat: { type: "json_schema", name: "out", schema: { type: "object" } },
    reasoning: { mode: "adaptive", effort: "medium" },
  }));
  assert.equal(warnings.length, 0);
  assert.equal(value.path, "/v1/messages");
  assert.deepEqual(value.body, {
    model: "claude-sonnet-4-5",
    max_tokens: 2000,
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    system: [{ type: "text", text: "sys" }],
    tools: [{ name: "f", input_schema: { type: "object" } }],
    tool_choice: { type: "any" },
    thinking: { type: "adaptive" },
    output_config: {
      effort: "medium",
      format: { type: "json_schema", schema: { type: "object" } },
    },
    temperature: 0.5,
    top_p: 0.9,
    top_k: 20,
    stop_sequences: ["STOP"],
    metadata: { user_id: "u1" },
    stream: true,
  });
});

Deno.test("encodeRequest fills max_tokens from the option or 8192, with a warning", () => {
  const fallback = encodeRequest(coreRequest({ messages: hello }));
  assert.equal((fallback.value.body as WireRequest).max_tokens, 8192);
  assert.deepEqual(fallback.warnings.map((w) => w.field), ["maxOutputTokens"]);
  const option = encodeRequest(coreRequest({ messages: hello }), { defaultMaxTokens: 32000 });
  assert.equal((option.value.body as WireRequest).max_tokens, 32000);
  assert.equal((option.value.body as WireRequest).stream, false);
});

Deno.test("store is a warning only for a chat client's store: true", () => {
  const responses = encodeRequest(coreRequest({
    messages: hello,
    maxOutputTokens: 100,
    store: false,
    source: "openai_responses",
  }));
  assert.deepEqual(responses.warnings, []);
  const chat = encodeRequest(coreRequest({
    messages: hello,
    maxOutputTokens: 100,
    store: true,
    source: "openai_chat",
  }));
  assert.deepEqual(chat.warnings.map((w) => w.field), ["store"]);
});

Deno.test("encodeRequest warns about what Anthropic cannot take", () => {
  const { value, warnings } = encodeRequest(coreRequest({
    messages: hello,
    maxOutputTokens: 100,
    responseFormat: { type: "json_object" },
    metadata: { a: "b" },
    store: true,
    promptCacheKey: "k",
    verbosity: "low",
  }));
  const body = value.body as WireRequest;
  assert.equal(body.output_config, undefined);
  assert.equal(body.metadata, undefined);
  assert.deepEqual(warnings.map((w) => w.field), [
    "responseFormat",
    "metadata",
    "promptCacheKey",
    "verbosity",
    "store",
  ]);
  const described = encodeRequest(coreRequest({
    messages: hello,
    maxOutputTokens: 100,
    responseFormat: { type: "json_schema", name: "n", schema: {}, description: "d" },
  }));
  assert.deepEqual(described.warnings.map((w) => w.field), ["responseFormat.description"]);
});
