import assert from "node:assert/strict";
import { encodeRequest } from "./encode_request.ts";
import { coreRequest } from "./test_support.ts";

const openai = { compat: false, providerName: "openai" };
const compat = { compat: true, providerName: "vllm" };

const full = coreRequest({
  tools: [{ type: "function", name: "f", parameters: { type: "object" } }],
  toolChoice: { type: "required" },
  parallelToolCalls: true,
  maxOutputTokens: 100,
  temperature: 0.2,
  topP: 0.8,
  topK: 40,
  stop: ["a", "b", "c", "d", "e"],
  reasoning: { mode: "enabled", budgetTokens: 4000 },
  responseFormat: { type: "json_object" },
  verbosity: "high",
  user: "u",
  metadata: { k: "v" },
  store: true,
  promptCacheKey: "pk",
  stream: true,
});

Deno.test("encodeRequest for OpenAI uses max_completion_tokens and OpenAI-only fields", () => {
  const { value, warnings } = encodeRequest(full, openai);
  assert.equal(value.path, "/v1/chat/completions");
  assert.deepEqual(value.body, {
    model: "gpt-test",
    messages: [{ role: "user", content: "hi" }],
    tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
    tool_choice: "required",
    parallel_tool_calls: true,
    reasoning_effort: "medium",
    max_completion_tokens: 100,
    temperature: 0.2,
    top_p: 0.8,
    stop: ["a", "b", "c", "d"],
    user: "u",
    response_format: { type: "json_object" },
    verbosity: "high",
    prompt_cache_key: "pk",
    store: true,
    metadata: { k: "v" },
    stream: true,
    stream_options: { include_usage: true },
  });
  assert.deepEqual(warnings.map((w) => w.field), ["topK", "stop"]);
});

Deno.test("encodeRequest for compat servers uses max_tokens and reports OpenAI-only fields", () => {
  const { value, warnings } = encodeRequest(full, compat);
  const body = value.body as Record<string, unknown>;
  assert.equal(body.max_tokens, 100);
  assert.equal(body.max_completion_tokens, undefined);
  assert.deepEqual(body.stop, ["a", "b", "c", "d", "e"]);
  for (const key of ["verbosity", "prompt_cache_key", "store", "metadata"]) {
    assert.equal(body[key], undefined, key);
  }
  assert.deepEqual(warnings.map((w) => w.field), [
    "topK",
    "verbosity",
    "promptCacheKey",
    "store",
    "metadata",
  ]);
});

Deno.test("encodeRequest drops tool settings without tools and metadata without store", () => {
  const { value, warnings } = encodeRequest(
    coreRequest({
      toolChoice: { type: "auto" },
      parallelToolCalls: false,
      metadata: { a: "b" },
      store: false,
    }),
    openai,
  );
  assert.deepEqual(value.body, {
    model: "gpt-test",
    messages: [{ role: "user", content: "hi" }],
    store: false,
    stream: false,
  });
  assert.deepEqual(warnings.map((w) => w.field), ["toolChoice", "parallelToolCalls", "metadata"]);
});

Deno.test("encodeRequest says nothing about store: false to a compat server", () => {
  const { value, warnings } = encodeRequest(coreRequest({ store: false }), compat);
  assert.equal((value.body as Record<string, unknown>).store, undefined);
  assert.deepEqual(warnings, []);
});
