import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { decodeRequest } from "./decode_request.ts";

/** A request shaped like the ones Codex 0.169 sends (see /work/shared/CLIENTS.md). */
const CODEX_BODY = {
  model: "gpt-5.2-codex",
  input: [
    {
      type: "message",
      role: "developer",
      content: [{ type: "input_text", text: "You are Codex, a coding agent." }],
    },
    {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "<environment_context>cwd</environment_context>" }],
    },
    { type: "message", role: "user", content: [{ type: "input_text", text: "list the files" }] },
    {
      type: "reasoning",
      summary: [{ type: "summary_text", text: "**Listing files**" }],
      encrypted_content: "gAAAAB-secret",
    },
    {
      type: "function_call",
      name: "exec_command",
      arguments: '{"cmd":"ls"}',
      call_id: "call_1",
    },
    { type: "function_call_output", call_id: "call_1", output: "a.txt\nb.txt" },
    {
      type: "function_call",
      name: "search",
      namespace: "mcp__docs__",
      arguments: '{"q":"x"}',
      call_id: "call_2",
    },
    { type: "function_call_output", call_id: "call_2", output: "[]" },
  ],
  tools: [
    {
      type: "function",
      name: "exec_command",
      description: "Runs a command in a PTY.",
      strict: false,
      parameters: {
        type: "object",
        properties: { cmd: { type: "string" } },
        required: ["cmd"],
        additionalProperties: false,
      },
    },
    {
      type: "namespace",
      name: "mcp__docs__",
      description: "Tools of the docs MCP server.",
      tools: [{
        type: "function",
        name: "search",
        description: "Search the docs.",
        parameters: { type: "object", properties: { q: { type: "string" } } },
      }],
    },
    { type: "web_search", external_web_access: false },
  ],
  tool_choice: "auto",
  parallel_tool_calls: false,
  reasoning: { summary: "auto" },
  store: false,
  stream: true,
  include: ["reasoning.encrypted_content"],
  prompt_cache_key: "0199f1c2-session",
  client_metadata: { "x-codex-turn": "1" },
};

Deno.test("decodeRequest: a Codex request decodes with only the expected warnings", () => {
  const { value, warnings } = decodeRequest(CODEX_BODY);
  assert.deepEqual(warnings.map((w) => w.field), ["client_metadata", "tools.1.description"]);
  assert.equal(value.source, "openai_responses");
  assert.equal(value.stream, true);
  assert.equal(value.store, false);
  assert.equal(value.promptCacheKey, "0199f1c2-session");
  assert.equal(value.parallelToolCalls, false);
  assert.deepEqual(value.toolChoice, { type: "auto" });
  assert.deepEqual(value.reasoning, { mode: "adaptive", summary: "auto", includeEncrypted: true });
  assert.deepEqual(value.system, []);
  assert.deepEqual(value.messages.map((m) => m.role), [
    "system",
    "user",
    "user",
    "assistant",
    "tool",
    "assistant",
    "tool",
  ]);
  assert.deepEqual(value.messages[0], {
    role: "system",
    content: [{ type: "text", text: "You are Codex, a coding agent." }],
    flavor: "developer",
  });
  assert.deepEqual(value.messages[3]?.content, [
    {
      type: "reasoning",
      text: "**Listing files**",
      summary: true,
      token: { vendor: "openai", value: "gAAAAB-secret" },
    },
    {
      type: "tool_call",
      id: "call_1",
      name: "exec_command",
      arguments: '{"cmd":"ls"}',
      kind: "function",
    },
  ]);
  assert.deepEqual(value.messages[5]?.content, [
    {
      type: "tool_call",
      id: "call_2",
      name: "mcp__docs__search",
      arguments: '{"q":"x"}',
      kind: "function",
    },
  ]);
  assert.deepEqual(value.tools, [
    {
      type: "function",
      name: "exec_command",
      description: "Runs a command in a PTY.",
      parameters: CODEX_BODY.tools[0]?.parameters,
      strict: false,
    },
    {
      type: "function",
      name: "mcp__docs__search",
      description: "Search the docs.",
      parameters: { type: "object", properties: { q: { type: "string" } } },
      namespace: "mcp__docs__",
    },
    {
      type: "builtin",
      vendor: "openai",
      name: "web_search",
      raw: { type: "web_search", external_web_access: false },
    },
  ]);
});

Deno.test("decodeRequest: a string input, instructions and the scalar settings", () => {
  const { value, warnings } = decodeRequest({
    model: "gpt-5",
    instructions: "Be brief.",
    input: "Hello",
    max_output_tokens: 100,
    temperature: 0.5,
    top_p: 0.9,
    user: "u1",
    metadata: { a: "b" },
    text: {
      verbosity: "low",
      format: { type: "json_schema", name: "out", schema: { type: "object" }, strict: true },
    },
    reasoning: { effort: "high", summary: "detailed" },
    previous_response_id: "resp_1",
  });
  assert.deepEqual(warnings, []);
  assert.deepEqual(value.system, [{ type: "text", text: "Be brief." }]);
  assert.deepEqual(value.messages, [{ role: "user", content: [{ type: "text", text: "Hello" }] }]);
  assert.equal(value.maxOutputTokens, 100);
  assert.equal(value.temperature, 0.5);
  assert.equal(value.topP, 0.9);
  assert.equal(value.user, "u1");
  assert.deepEqual(value.metadata, { a: "b" });
  assert.equal(value.verbosity, "low");
  assert.deepEqual(value.responseFormat, {
    type: "json_schema",
    name: "out",
    schema: { type: "object" },
    strict: true,
  });
  assert.deepEqual(value.reasoning, { mode: "adaptive", effort: "high", summary: "detailed" });
  assert.equal(value.stream, false);
});

Deno.test("decodeRequest: unknown effort and summary values are warned about, not refused", () => {
  const { value, warnings } = decodeRequest({
    model: "m",
    reasoning: { effort: "ultra", summary: "verbose" },
  });
  assert.deepEqual(value.reasoning, { mode: "adaptive" });
  assert.deepEqual(warnings.map((w) => w.field), ["reasoning.effort", "reasoning.summary"]);
  assert.deepEqual(decodeRequest({ model: "m", reasoning: { summary: "none" } }).warnings, []);
});

Deno.test("decodeRequest: effort none disables reasoning; include alone asks for tokens", () => {
  assert.deepEqual(decodeRequest({ model: "m", reasoning: { effort: "none" } }).value.reasoning, {
    mode: "disabled",
    effort: "none",
  });
  assert.deepEqual(
    decodeRequest({ model: "m", include: ["reasoning.encrypted_content"] }).value.reasoning,
    { mode: "adaptive", includeEncrypted: true },
  );
});

Deno.test("decodeRequest: fields without a counterpart are warned about, never silently dropped", () => {
  const { warnings } = decodeRequest({
    model: "m",
    input: "x",
    service_tier: "flex",
    top_logprobs: 2,
    truncation: "auto",
    include: ["message.output_text.logprobs"],
    stream_options: { include_obfuscation: false },
  });
  assert.deepEqual(warnings.map((w) => w.field).sort(), [
    "include",
    "service_tier",
    "stream_options",
    "top_logprobs",
    "truncation",
  ]);
});

Deno.test("decodeRequest: stateful OpenAI features are refused with a 400", () => {
  const refused = (body: Record<string, unknown>, param: string) => {
    assert.throws(() => decodeRequest({ model: "m", input: "x", ...body }), (e) => {
      assert.ok(e instanceof GatewayError);
      assert.equal(e.status, 400);
      assert.equal(e.param, param);
      return true;
    });
  };
  refused({ background: true }, "background");
  refused({ conversation: "conv_1" }, "conversation");
  refused({ prompt: { id: "pmpt_1" } }, "prompt");
  assert.doesNotThrow(() => decodeRequest({ model: "m", background: false }));
});

Deno.test("decodeRequest: a schema violation names the field path", () => {
  const cases: Array<[unknown, string]> = [
    [{ input: "x" }, "model"],
    [
      { model: "m", input: [{ type: "function_call", call_id: 3, name: "f", arguments: "" }] },
      "input.0.call_id",
    ],
    [
      { model: "m", input: [{ role: "user", content: [{ type: "input_text" }] }] },
      "input.0.content.0.text",
    ],
    [{ model: "m", tools: [{ type: "function" }] }, "tools.0.name"],
    [{ model: "m", max_output_tokens: -1 }, "max_output_tokens"],
  ];
  for (const [body, param] of cases) {
    assert.throws(() => decodeRequest(body), (e) => {
      assert.ok(e instanceof GatewayError);
      assert.equal(e.param, param);
      assert.ok(e.message.startsWith(`${param}: `), e.message);
      return true;
    });
  }
});

Deno.test("decodeRequest: instructions given as items become messages in front", () => {
  const { value } = decodeRequest({
    model: "m",
    instructions: [{ role: "system", content: "Rules." }],
    input: "x",
  });
  assert.deepEqual(value.messages.map((m) => m.role), ["system", "user"]);
  assert.deepEqual(value.system, []);
});

Deno.test("decodeRequest: a recorded Codex 0.169 body (second turn of a tool round trip)", async () => {
  const body = JSON.parse(
    await Deno.readTextFile(
      new URL("./testdata/codex_0.169_tool_round_trip.json", import.meta.url),
    ),
  );
  const { value, warnings } = decodeRequest(body);
  assert.deepEqual(warnings.map((w) => w.field), ["client_metadata", "tools.4.description"]);
  assert.ok(value.tools.some((t) => t.name === "multi_agent_v1__spawn_agent"));
  assert.deepEqual(value.messages.map((m) => m.role), [
    "system",
    "system",
    "user",
    "user",
    "assistant",
    "tool",
  ]);
  const [reasoning, call] = value.messages[4]?.content ?? [];
  assert.deepEqual(reasoning, {
    type: "reasoning",
    text: "I will run a command.",
    summary: true,
    token: { vendor: "anthropic", value: "sig123" },
    itemId: "rs_msg_turn1_0",
  });
  assert.equal(call?.type === "tool_call" && call.name, "exec_command");
  assert.equal(value.messages[5]?.content[0]?.type, "tool_result");
});
