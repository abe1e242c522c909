import assert from "node:assert/strict";
import type { CoreRequest } from "../../core/request.ts";
import { shortenToolName } from "../tool_names.ts";
import { decodeRequest } from "./decode_request.ts";
import { effortOfBudget, encodeRequest } from "./encode_request.ts";
import { coreRequest } from "./test_util.ts";

type Body = Record<string, unknown>;
const body = (request: CoreRequest) => encodeRequest(request).value.body as Body;

Deno.test("encodeRequest: always stateless toward OpenAI, with encrypted reasoning", () => {
  const { value, warnings } = encodeRequest(coreRequest({ stream: false }));
  assert.equal(value.path, "/v1/responses");
  assert.deepEqual(value.body, {
    model: "gpt-5",
    input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }],
    store: false,
    include: ["reasoning.encrypted_content"],
    stream: false,
  });
  assert.deepEqual(warnings, []);
});

Deno.test("encodeRequest: scalar settings, system and response format", () => {
  const b = body(coreRequest({
    system: [{ type: "text", text: "A" }, { type: "text", text: "B" }],
    maxOutputTokens: 500,
    temperature: 0.2,
    topP: 0.8,
    metadata: { k: "v" },
    promptCacheKey: "pc",
    user: "u",
    verbosity: "high",
    responseFormat: { type: "json_schema", name: "n", schema: { type: "object" }, strict: true },
  }));
  assert.equal(b.instructions, "A\n\nB");
  assert.equal(b.max_output_tokens, 500);
  assert.equal(b.temperature, 0.2);
  assert.equal(b.top_p, 0.8);
  assert.deepEqual(b.metadata, { k: "v" });
  assert.equal(b.prompt_cache_key, "pc");
  assert.equal(b.user, "u");
  assert.deepEqual(b.text, {
    format: { type: "json_schema", name: "n", schema: { type: "object" }, strict: true },
    verbosity: "high",
  });
  assert.deepEqual(body(coreRequest({ responseFormat: { type: "json_object" } })).text, {
    format: { type: "json_object" },
  });
});

Deno.test("encodeRequest: reasoning effort, budgets and summaries", () => {
  const reasoning = (
    r: CoreRequest["reasoning"],
    source: CoreRequest["source"] = "openai_responses",
  ) => body(coreRequest({ reasoning: r, source })).reasoning;
  assert.deepEqual(reasoning({ mode: "adaptive", effort: "low", summary: "concise" }), {
    effort: "low",
    summary: "concise",
  });
  assert.deepEqual(reasoning({ mode: "disabled" }), { effort: "none" });
  assert.deepEqual(reasoning({ mode: "enabled", budgetTokens: 10000 }, "anthropic_messages"), {
    effort: "medium",
    summary: "auto",
  });
  assert.deepEqual(
    reasoning({ mode: "adaptive", display: "omitted" }, "anthropic_messages"),
    undefined,
  );
  const max = encodeRequest(coreRequest({ reasoning: { mode: "adaptive", effort: "max" } }));
  assert.deepEqual((max.value.body as Body).reasoning, { effort: "xhigh" });
  assert.deepEqual(max.warnings.map((w) => w.field), ["reasoning.effort"]);
  assert.equal(effortOfBudget(1024), "low");
  assert.equal(effortOfBudget(4096), "medium");
  assert.equal(effortOfBudget(16384), "high");
});

Deno.test("encodeRequest: what OpenAI lacks or limits is warned about", () => {
  const long = "x".repeat(80);
  const { value, warnings } = encodeRequest(coreRequest({
    topK: 5,
    stop: ["END"],
    store: true,
    maxOutputTokens: 4,
    user: long,
  }));
  const b = value.body as Body;
  assert.equal(b.max_output_tokens, 16);
  assert.equal(b.user, shortenToolName(long, 64));
  assert.equal(b.store, false);
  assert.deepEqual(warnings.map((w) => w.field).sort(), [
    "max_output_tokens",
    "stop",
    "store",
    "top_k",
    "user",
  ]);
});

Deno.test("encodeRequest: a Codex request goes back to OpenAI with flat tools and its history", () => {
  const { value: request } = decodeRequest({
    model: "gpt-5.2-codex",
    input: [
      { role: "developer", content: "Rules" },
      { role: "user", content: "go" },
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc" },
      {
        type: "function_call",
        call_id: "c1",
        name: "search",
        namespace: "mcp__d__",
        arguments: "{}",
      },
      { type: "function_call_output", call_id: "c1", output: "r" },
    ],
    tools: [
      { type: "namespace", name: "mcp__d__", tools: [{ type: "function", name: "search" }] },
      { type: "web_search" },
      { type: "local_shell" },
    ],
    tool_choice: { type: "function", name: "search", namespace: "mcp__d__" },
    parallel_tool_calls: true,
    stream: true,
  });
  const b = body(request);
  assert.deepEqual(b.input, [
    { type: "message", role: "developer", content: [{ type: "input_text", text: "Rules" }] },
    { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] },
    { type: "reasoning", summary: [], encrypted_content: "enc", id: "rs_1" },
    { type: "function_call", call_id: "c1", name: "mcp__d__search", arguments: "{}" },
    { type: "function_call_output", call_id: "c1", output: "r" },
  ]);
  assert.deepEqual(b.tools, [
    {
      type: "function",
      name: "mcp__d__search",
      parameters: { type: "object", properties: {} },
      strict: false,
    },
    { type: "web_search" },
    { type: "local_shell" },
  ]);
  assert.deepEqual(b.tool_choice, { type: "function", name: "mcp__d__search" });
  assert.equal(b.parallel_tool_calls, true);
  assert.equal(b.stream, true);
});

Deno.test("encodeRequest: a non-reasoning model gets no include, reasoning or reasoning items", () => {
  const { value, warnings } = encodeRequest(coreRequest({
    model: "gpt-4.1",
    system: [{ type: "text", text: "s", cacheControl: { type: "ephemeral" } }],
    reasoning: { mode: "adaptive", effort: "high" },
    messages: [
      { role: "user", content: [{ type: "text", text: "q" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "t", token: { vendor: "openai", value: "enc" } },
          { type: "text", text: "a" },
        ],
      },
    ],
  }));
  const b = value.body as Body;
  assert.equal(b.include, undefined);
  assert.equal(b.reasoning, undefined);
  assert.deepEqual((b.input as Body[]).map((i) => i.type), ["message", "message"]);
  assert.deepEqual(warnings.map((w) => w.field).sort(), [
    "cache_control",
    "messages.1.content.0",
    "reasoning",
  ]);
});
