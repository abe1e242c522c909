import assert from "node:assert/strict";
import OpenAI from "openai";
import { emptyUsage } from "../../core/response.ts";
import { decodeRequest } from "./decode_request.ts";
import { encodeResponse, reasoningItem } from "./encode_response.ts";
import { coreRequest, encodeContext } from "./test_util.ts";

Deno.test("encodeResponse: items in order, consecutive texts in one message", () => {
  const request = coreRequest({
    reasoning: { mode: "adaptive", includeEncrypted: true },
    tools: [{ type: "function", name: "f", parameters: {} }],
    maxOutputTokens: 99,
    system: [{ type: "text", text: "sys" }],
  });
  const { value, warnings } = encodeResponse({
    id: "resp_1",
    model: "upstream-model",
    created: 42,
    stopReason: "tool_use",
    usage: { ...emptyUsage(), inputTokens: 3, outputTokens: 4 },
    content: [
      { type: "reasoning", text: "r", token: { vendor: "openai", value: "enc" }, itemId: "rs_up" },
      { type: "text", text: "a" },
      { type: "text", text: "b" },
      { type: "tool_call", id: "c1", name: "f", arguments: "{}", kind: "function" },
      { type: "text", text: "after" },
    ],
  }, encodeContext(request));
  assert.deepEqual(warnings, []);
  assert.equal(value.id, "resp_1");
  assert.equal(value.model, "client-model");
  assert.equal(value.created_at, 42);
  assert.equal(value.status, "completed");
  assert.equal(value.instructions, "sys");
  assert.equal(value.max_output_tokens, 99);
  assert.deepEqual(value.output, [
    {
      type: "reasoning",
      id: "rs_up",
      summary: [{ type: "summary_text", text: "r" }],
      encrypted_content: "enc",
    },
    {
      type: "message",
      id: "msg_1_1",
      role: "assistant",
      status: "completed",
      content: [
        { type: "output_text", text: "a", annotations: [] },
        { type: "output_text", text: "b", annotations: [] },
      ],
    },
    {
      type: "function_call",
      id: "fc_1_2",
      call_id: "c1",
      name: "f",
      arguments: "{}",
      status: "completed",
    },
    {
      type: "message",
      id: "msg_1_3",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "after", annotations: [] }],
    },
  ]);
});

Deno.test("encodeResponse: incomplete responses and restored tool shapes", () => {
  const { value: request } = decodeRequest({
    model: "m",
    tools: [
      { type: "namespace", name: "ns", tools: [{ type: "function", name: "t" }] },
      { type: "custom", name: "apply_patch" },
    ],
  });
  const { value } = encodeResponse({
    id: "x",
    model: "m",
    created: 1,
    stopReason: "content_filter",
    usage: emptyUsage(),
    content: [
      { type: "tool_call", id: "c1", name: "ns__t", arguments: "{}", kind: "function" },
      {
        type: "tool_call",
        id: "c2",
        name: "apply_patch",
        arguments: '{"input":"P"}',
        kind: "function",
      },
    ],
  }, encodeContext(request));
  assert.equal(value.status, "incomplete");
  assert.deepEqual(value.incomplete_details, { reason: "content_filter" });
  assert.deepEqual(
    value.output.map((
      o,
    ) => [o.type, "name" in o ? o.name : "", "namespace" in o ? o.namespace : ""]),
    [
      ["function_call", "t", "ns"],
      ["custom_tool_call", "apply_patch", ""],
    ],
  );
  assert.equal((value.output[1] as { input: string }).input, "P");
});

Deno.test("encodeResponse: the OpenAI SDK parses the body", async () => {
  const { value } = encodeResponse({
    id: "r",
    model: "m",
    created: 1,
    stopReason: "end_turn",
    usage: emptyUsage(),
    content: [{ type: "text", text: "hello" }],
  }, encodeContext());
  const client = new OpenAI({
    apiKey: "k",
    baseURL: "http://gatehouse.test/v1",
    fetch: () => Promise.resolve(Response.json(value)),
  });
  const response = await client.responses.create({ model: "client-model", input: "hi" });
  assert.equal(response.output_text, "hello");
});

Deno.test("reasoningItem: no token unless asked", () => {
  const part = { text: "", token: { vendor: "openai" as const, value: "e" } };
  assert.deepEqual(reasoningItem(part, "rs", false), { type: "reasoning", id: "rs", summary: [] });
  assert.equal(reasoningItem(part, "rs", true).encrypted_content, "e");
});

Deno.test("encodeResponse: a refusal's explanation is a refusal part of the assistant message", async () => {
  const base = {
    id: "resp_r",
    model: "up",
    created: 1,
    stopReason: "refusal" as const,
    usage: emptyUsage(),
  };
  const alone = encodeResponse({
    ...base,
    content: [],
    stopDetails: { explanation: "Blocked by policy.", category: "cyber" },
  }, encodeContext());
  assert.equal(alone.value.status, "completed");
  assert.deepEqual(alone.value.output, [{
    type: "message",
    id: "msg_r_0",
    role: "assistant",
    status: "completed",
    content: [{ type: "refusal", refusal: "Blocked by policy." }],
  }]);
  assert.deepEqual(alone.warnings.map((w) => w.field), ["stopDetails.category"]);
  // After text, the refusal joins the same message; after a call, it opens a new one.
  const afterText = encodeResponse({
    ...base,
    content: [{ type: "text", text: "Partly." }],
    stopDetails: { explanation: "No more." },
  }, encodeContext());
  assert.deepEqual(afterText.warnings, []);
  assert.deepEqual(afterText.value.output.map((i) => i.type === "message" ? i.content : i.type), [
    [{ type: "output_text", text: "Partly.", annotations: [] }, {
      type: "refusal",
      refusal: "No more.",
    }],
  ]);
  const afterCall = encodeResponse({
    ...base,
    content: [{ type: "tool_call", id: "c", name: "f", arguments: "{}", kind: "function" }],
    stopDetails: { explanation: "No more." },
  }, encodeContext(coreRequest({ tools: [{ type: "function", name: "f", parameters: {} }] })));
  assert.deepEqual(afterCall.value.output.map((i) => i.type), ["function_call", "message"]);
  // The SDK reads the refusal part.
  const client = new OpenAI({
    apiKey: "test",
    baseURL: "http://gatehouse.test/v1",
    fetch: () => Promise.resolve(Response.json(alone.value)),
  });
  const read = await client.responses.create({ model: "client-model", input: "hi" });
  const item = read.output[0];
  assert.ok(item?.type === "message");
  assert.deepEqual(item.content, [{ type: "refusal", refusal: "Blocked by policy." }]);
});
