import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { shortenToolName } from "../tool_names.ts";
import { decodeResponse } from "./decode_response.ts";
import { coreRequest, fixtureJson } from "./test_util.ts";

const decode = (body: unknown, request = coreRequest({ stream: false })) =>
  decodeResponse("openai", body, request);

Deno.test("decodeResponse: encrypted reasoning and text from the recorded body", async () => {
  const body = await fixtureJson("openai-reasoning-encrypted-content.1") as {
    output: Array<{ encrypted_content?: string; id: string }>;
  };
  const { value } = decode(body);
  assert.equal(value.content[0]?.type, "reasoning");
  const reasoning = value.content[0];
  assert.ok(reasoning?.type === "reasoning");
  assert.equal(reasoning.token?.value, body.output[0]?.encrypted_content);
  assert.equal(reasoning.itemId, body.output[0]?.id);
  assert.match(reasoning.text, /^\*\*Reporting final result\*\*/);
  assert.deepEqual(value.content[1], {
    type: "text",
    text: "12 + 7 = 19\n19 × 3 = 57\n57 × 10 = 570\n\nFinal result: 570",
  });
  assert.equal(value.stopReason, "end_turn");
  assert.deepEqual(value.usage, {
    inputTokens: 865,
    outputTokens: 163,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 128,
  });
  assert.equal(value.model, "gpt-5-mini-2025-08-07");
  assert.equal(value.created, 1765591383);
});

Deno.test("decodeResponse: custom, local shell and wrapped parallel calls", async () => {
  const custom = decode(await fixtureJson("openai-custom-tool.1")).value;
  assert.deepEqual(custom.content, [{
    type: "tool_call",
    id: "call_custom_sql_001",
    name: "write_sql",
    arguments: "SELECT * FROM users WHERE age > 25",
    kind: "custom",
    itemId: "ct_abc123def456",
  }]);
  assert.equal(custom.stopReason, "tool_use");
  const shell = decode(await fixtureJson("openai-local-shell-tool.1")).value;
  assert.deepEqual(shell.content, [{
    type: "tool_call",
    id: "call_XWgeTylovOiS8xLNz2TONOgO",
    name: "local_shell",
    arguments: '{"command":["ls"],"working_directory":"/root"}',
    kind: "local_shell",
    itemId: "lsh_68da74abdaec819c9aa19c124308f4600fdbc19a07110799",
  }]);
  const wrapped = decode(await fixtureJson("parallel-tool-call-wrapper.1")).value;
  assert.deepEqual(wrapped.content.map((p) => p.type === "tool_call" && [p.id, p.name]), [
    ["call_parallel_0", "weather"],
    ["call_parallel_1", "cityAttractions"],
  ]);
});

Deno.test("decodeResponse: refusals, incomplete responses, shortened and namespaced names", () => {
  const long = "a_tool_name_that_is_far_too_long_for_the_openai_limit_of_sixty_four_chars";
  const request = coreRequest({ tools: [{ type: "function", name: long, parameters: {} }] });
  const { value, warnings } = decode({
    id: "r",
    model: "m",
    created_at: 1,
    status: "incomplete",
    incomplete_details: { reason: "content_filter" },
    output: [
      { type: "message", content: [{ type: "refusal", refusal: "No." }] },
      { type: "function_call", call_id: "c", name: shortenToolName(long), arguments: "{}" },
      {
        type: "function_call",
        call_id: "d",
        name: "search",
        namespace: "mcp__x__",
        arguments: "{}",
      },
      { type: "web_search_call", id: "ws_1" },
    ],
  }, request);
  assert.deepEqual(value.content.map((p) => p.type === "tool_call" ? p.name : p.type), [
    long,
    "mcp__x__search",
  ]);
  assert.equal(value.stopReason, "content_filter");
  assert.deepEqual(value.stopDetails, { explanation: "No." });
  assert.deepEqual(warnings.map((w) => w.field), ["output.3"]);
  const refused = decode({
    status: "completed",
    output: [{
      type: "message",
      content: [
        { type: "output_text", text: "Partly: " },
        { type: "refusal", refusal: "x" },
        { type: "refusal", refusal: "y" },
      ],
    }],
  });
  assert.equal(refused.value.stopReason, "refusal");
  assert.deepEqual(refused.value.content, [{ type: "text", text: "Partly: " }]);
  assert.deepEqual(refused.value.stopDetails, { explanation: "x\n\ny" });
  assert.equal(decode({ status: "completed", output: [] }).value.stopDetails, undefined);
});

Deno.test("decodeResponse: failed and malformed bodies are gateway errors", () => {
  assert.throws(
    () =>
      decode({ status: "failed", output: [], error: { code: "server_error", message: "boom" } }),
    (e) => e instanceof GatewayError && e.code === "server_error" && /boom/.test(e.message),
  );
  assert.throws(() => decode({ id: "x" }), (e) => e instanceof GatewayError && e.status === 502);
});
