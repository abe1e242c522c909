import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { decodeRequest } from "./decode_request.ts";

const minimal = {
  model: "claude-sonnet-4-5",
  max_tokens: 256,
  messages: [{ role: "user", content: "Hello" }],
};

Deno.test("decodeRequest reads a minimal request", () => {
  const { value, warnings } = decodeRequest(minimal);
  assert.deepEqual(warnings, []);
  assert.deepEqual(value, {
    model: "claude-sonnet-4-5",
    system: [],
    messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
    tools: [],
    maxOutputTokens: 256,
    stream: false,
    source: "anthropic_messages",
  });
});

Deno.test("decodeRequest carries sampling, stop, user and tool choice", () => {
  const { value, warnings } = decodeRequest({
    ...minimal,
    system: "Be brief.",
    temperature: 0.2,
    top_p: 0.9,
    top_k: 40,
    stop_sequences: ["END"],
    metadata: { user_id: "u-1", team: "x" },
    tools: [{ name: "Read", input_schema: { type: "object" } }],
    tool_choice: { type: "auto", disable_parallel_tool_use: true },
    thinking: { type: "enabled", budget_tokens: 1024 },
    stream: true,
  });
  assert.equal(value.temperature, 0.2);
  assert.equal(value.topP, 0.9);
  assert.equal(value.topK, 40);
  assert.deepEqual(value.stop, ["END"]);
  assert.equal(value.user, "u-1");
  assert.deepEqual(value.toolChoice, { type: "auto" });
  assert.equal(value.parallelToolCalls, false);
  assert.deepEqual(value.reasoning, { mode: "enabled", budgetTokens: 1024 });
  assert.deepEqual(value.system, [{ type: "text", text: "Be brief." }]);
  assert.equal(value.stream, true);
  assert.deepEqual(warnings.map((w) => w.field), ["metadata.team"]);
});

Deno.test("decodeRequest warns about every field it cannot carry", () => {
  const { warnings } = decodeRequest({
    ...minimal,
    context_management: { edits: [] },
    service_tier: "auto",
    container: "c",
    mcp_servers: [],
    brand_new_field: 1,
  });
  assert.deepEqual(warnings.map((w) => w.field), [
    "context_management",
    "service_tier",
    "container",
    "mcp_servers",
    "brand_new_field",
  ]);
  assert.match(warnings[4]!.message, /no counterpart/);
});

function rejects(body: unknown, param: string) {
  assert.throws(() => decodeRequest(body), (err: unknown) => {
    assert.ok(err instanceof GatewayError);
    assert.equal(err.status, 400);
    assert.equal(err.kind, "invalid_request");
    assert.equal(err.param, param);
    assert.ok(err.message.includes(param), err.message);
    return true;
  });
}

Deno.test("decodeRequest rejects a malformed body naming the field path", () => {
  rejects({ ...minimal, max_tokens: undefined }, "max_tokens");
  rejects({ ...minimal, messages: [{ role: "tool", content: "x" }] }, "messages.0.role");
  rejects(
    { ...minimal, messages: [{ role: "user", content: [{ type: "text", text: 5 }] }] },
    "messages.0.content.0.text",
  );
  rejects(
    {
      ...minimal,
      messages: [
        { role: "user", content: "a" },
        { role: "assistant", content: [{ type: "tool_use", id: "t", name: "n" }] },
      ],
    },
    "messages.1.content.0.input",
  );
  rejects({ ...minimal, thinking: { type: "sometimes" } }, "thinking.type");
});

Deno.test("decodeRequest rejects a body that is not an object", () => {
  assert.throws(() => decodeRequest("not an object"), (err: unknown) => {
    assert.ok(err instanceof GatewayError);
    assert.equal(err.status, 400);
    assert.equal(err.param, null);
    assert.match(err.message, /body: .*expected object/);
    return true;
  });
});
