import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { decodeRequest } from "./decode_request.ts";

const base = { model: "gpt-x", messages: [{ role: "user", content: "hi" }] };

Deno.test("decodeRequest maps every translated field", () => {
  const { value, warnings } = decodeRequest({
    ...base,
    tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
    tool_choice: "auto",
    parallel_tool_calls: false,
    reasoning_effort: "high",
    max_tokens: 10,
    max_completion_tokens: 20,
    temperature: 0.5,
    top_p: 0.9,
    stop: "END",
    user: "u1",
    metadata: { k: "v" },
    response_format: { type: "json_object" },
    stream: true,
    stream_options: { include_usage: true },
    store: false,
    prompt_cache_key: "pk",
    verbosity: "low",
  });
  assert.deepEqual(value, {
    model: "gpt-x",
    system: [],
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    tools: [{ type: "function", name: "f", parameters: { type: "object" } }],
    toolChoice: { type: "auto" },
    parallelToolCalls: false,
    maxOutputTokens: 20,
    temperature: 0.5,
    topP: 0.9,
    stop: ["END"],
    reasoning: { mode: "adaptive", effort: "high" },
    responseFormat: { type: "json_object" },
    verbosity: "low",
    user: "u1",
    metadata: { k: "v" },
    store: false,
    promptCacheKey: "pk",
    stream: true,
    includeStreamUsage: true,
    source: "openai_chat",
  });
  assert.deepEqual(warnings.map((w) => w.field), ["max_tokens"]);
});

Deno.test("decodeRequest: effort none disables reasoning; include_usage needs stream", () => {
  const { value, warnings } = decodeRequest({
    ...base,
    reasoning_effort: "none",
    stream_options: { include_usage: true },
  });
  assert.deepEqual(value.reasoning, { mode: "disabled", effort: "none" });
  assert.equal(value.includeStreamUsage, undefined);
  assert.deepEqual(warnings.map((w) => w.field), ["stream_options"]);
});

Deno.test("decodeRequest reports fields without a counterpart", () => {
  const { warnings } = decodeRequest({
    ...base,
    logprobs: true,
    top_logprobs: 2,
    seed: 7,
    frequency_penalty: 0.1,
    presence_penalty: 0.1,
    logit_bias: { "1": 2 },
    modalities: ["text"],
    service_tier: "flex",
    web_search_options: {},
    n: 1,
    stream: true,
    stream_options: { include_obfuscation: false },
  });
  assert.deepEqual(warnings.map((w) => w.field), [
    "logprobs",
    "top_logprobs",
    "seed",
    "frequency_penalty",
    "presence_penalty",
    "logit_bias",
    "modalities",
    "service_tier",
    "web_search_options",
    "stream_options.include_obfuscation",
  ]);
});

Deno.test("decodeRequest refuses n > 1 and legacy functions", () => {
  assert.throws(() => decodeRequest({ ...base, n: 2 }), (e: GatewayError) => {
    assert.equal(e.status, 400);
    assert.equal(e.param, "n");
    assert.match(e.message, /only n=1/);
    return true;
  });
  assert.throws(() => decodeRequest({ ...base, functions: [{ name: "f" }] }), /use `tools`/);
});

Deno.test("decodeRequest names the invalid field", () => {
  assert.throws(
    () => decodeRequest({ model: "m", messages: [{ role: "robot", content: "x" }] }),
    (e: GatewayError) => {
      assert.equal(e.param, "messages.0.role");
      return true;
    },
  );
  assert.throws(() => decodeRequest({ ...base, temperature: 3 }), /temperature/);
  assert.throws(() => decodeRequest("nope"), GatewayError);
});
