import assert from "node:assert/strict";
import OpenAI from "openai";
import { GatewayError } from "../../core/errors.ts";
import { emptyUsage } from "../../core/response.ts";
import type { StreamPart } from "../../core/stream.ts";
import { decodeRequest } from "./decode_request.ts";
import { encodeStream } from "./encode_stream.ts";
import { coreRequest, encodeContext, encodeParts, pipe } from "./test_util.ts";

const usage = { ...emptyUsage(), inputTokens: 10, outputTokens: 5, cacheReadTokens: 4 };
const start: StreamPart = { type: "start", id: "msg_abc", model: "up", created: 100 };
const finish = (stopReason: "end_turn" | "tool_use" | "max_tokens" = "end_turn"): StreamPart => ({
  type: "finish",
  stopReason,
  usage: { ...usage, reasoningTokens: 2 },
});

/** Runs the bytes through the OpenAI SDK's strict stream accumulator. */
async function sdkFinalResponse(bytes: Uint8Array[]) {
  const client = new OpenAI({
    apiKey: "test",
    baseURL: "http://gatehouse.test/v1",
    fetch: () =>
      Promise.resolve(
        new Response(ReadableStream.from(bytes), {
          headers: { "content-type": "text/event-stream" },
        }),
      ),
  });
  return await client.responses.stream({ model: "client-model", input: "hi" }).finalResponse();
}

Deno.test("encodeStream: text, reasoning and a call in order, one terminal event", async () => {
  const request = coreRequest({
    reasoning: { mode: "adaptive", includeEncrypted: true },
    tools: [{ type: "function", name: "exec_command", parameters: {} }],
  });
  const parts: StreamPart[] = [
    start,
    { type: "reasoning_start", index: 0 },
    { type: "reasoning_delta", index: 0, text: "Think" },
    { type: "reasoning_delta", index: 0, text: "ing" },
    { type: "reasoning_token", index: 0, token: { vendor: "openai", value: "gAAA" } },
    { type: "reasoning_end", index: 0 },
    { type: "text_start", index: 1 },
    { type: "text_delta", index: 1, text: "Hello" },
    { type: "text_end", index: 1 },
    { type: "text_start", index: 2 },
    { type: "text_delta", index: 2, text: " again" },
    { type: "text_end", index: 2 },
    { type: "tool_call_start", index: 3, id: "call_1", name: "exec_command", kind: "function" },
    { type: "tool_call_delta", index: 3, delta: '{"cmd":' },
    { type: "tool_call_delta", index: 3, delta: '"ls"}' },
    { type: "tool_call_end", index: 3 },
    finish("tool_use"),
  ];
  const events = await encodeParts(parts, encodeStream(encodeContext(request)));
  assert.deepEqual(events.map((e) => e.type), [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_text.delta",
    "response.reasoning_summary_text.delta",
    "response.reasoning_summary_text.done",
    "response.reasoning_summary_part.done",
    "response.output_item.done",
    "response.output_item.added",
    "response.content_part.added",
    "response.output_text.delta",
    "response.output_text.done",
    "response.content_part.done",
    "response.content_part.added",
    "response.output_text.delta",
    "response.output_text.done",
    "response.content_part.done",
    "response.output_item.done",
    "response.output_item.added",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.output_item.done",
    "response.completed",
  ]);
  // Each event shows the message item as it was then, though the same item grows afterwards.
  const messageEvents = events.filter((e) =>
    (e.item as Record<string, unknown> | undefined)?.type === "message"
  );
  assert.deepEqual(messageEvents.map((e) => [e.type, (e.item as Record<string, unknown>).status]), [
    ["response.output_item.added", "in_progress"],
    ["response.output_item.done", "completed"],
  ]);
  assert.deepEqual((messageEvents[0]!.item as Record<string, unknown>).content, []);
  assert.equal(
    ((messageEvents[1]!.item as Record<string, unknown>).content as unknown[]).length,
    2,
  );
  const completed = events.at(-1)?.response as Record<string, unknown>;
  assert.equal(completed.id, "resp_msg_abc");
  assert.equal(completed.model, "client-model");
  assert.equal(completed.status, "completed");
  assert.deepEqual(completed.usage, {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 4 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 2 },
    total_tokens: 15,
  });
  const output = completed.output as Array<Record<string, unknown>>;
  assert.deepEqual(output[0], {
    type: "reasoning",
    id: "rs_msg_abc_0",
    summary: [{ type: "summary_text", text: "Thinking" }],
    encrypted_content: "gAAA",
  });
  assert.deepEqual((output[1]?.content as Array<{ text: string }>).map((c) => c.text), [
    "Hello",
    " again",
  ]);
  assert.deepEqual(output[2], {
    type: "function_call",
    id: "fc_msg_abc_2",
    call_id: "call_1",
    name: "exec_command",
    arguments: '{"cmd":"ls"}',
    status: "completed",
  });
});

Deno.test("encodeStream: the OpenAI SDK accumulates the stream into the final response", async () => {
  const parts: StreamPart[] = [
    start,
    { type: "reasoning_start", index: 0 },
    { type: "reasoning_delta", index: 0, text: "Plan" },
    { type: "reasoning_end", index: 0 },
    { type: "text_start", index: 1 },
    { type: "text_delta", index: 1, text: "Hi" },
    { type: "text_delta", index: 1, text: " there" },
    { type: "text_end", index: 1 },
    { type: "tool_call_start", index: 2, id: "c1", name: "f", kind: "function" },
    { type: "tool_call_delta", index: 2, delta: "{}" },
    { type: "tool_call_end", index: 2 },
    finish("tool_use"),
  ];
  const bytes = await pipe(parts, encodeStream(encodeContext()));
  const response = await sdkFinalResponse(bytes);
  assert.equal(response.status, "completed");
  assert.equal(response.output_text, "Hi there");
  assert.deepEqual(response.output.map((o) => o.type), ["reasoning", "message", "function_call"]);
  assert.equal(response.usage?.total_tokens, 15);
});

Deno.test("encodeStream: an error part ends with response.failed, also for the SDK", async () => {
  const error = new GatewayError("invalid_request", 400, "too long", {
    code: "context_length_exceeded",
  });
  const parts: StreamPart[] = [
    start,
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, text: "par" },
    { type: "error", error },
    { type: "text_delta", index: 0, text: "ignored" },
  ];
  const events = await encodeParts(parts, encodeStream(encodeContext()));
  const failed = events.at(-1);
  assert.equal(failed?.type, "response.failed");
  const response = failed?.response as Record<string, unknown>;
  assert.deepEqual(response.error, { code: "context_length_exceeded", message: "too long" });
  assert.equal(response.status, "failed");
  const sdk = await sdkFinalResponse(await pipe(parts, encodeStream(encodeContext())));
  assert.equal(sdk.status, "failed");
  assert.equal(sdk.error?.code, "context_length_exceeded");
});

Deno.test("encodeStream: error codes come from the error kind when it has none", async () => {
  const cases: Array<[GatewayError, string]> = [
    [new GatewayError("rate_limit", 429, "slow down"), "rate_limit_exceeded"],
    [new GatewayError("invalid_request", 400, "bad"), "invalid_prompt"],
    [new GatewayError("overloaded", 503, "busy"), "server_error"],
  ];
  for (const [error, code] of cases) {
    const events = await encodeParts([{ type: "error", error }], encodeStream(encodeContext()));
    assert.equal((events.at(-1)?.response as { error: { code: string } }).error.code, code);
  }
});

Deno.test("encodeStream: a stream that ends early still ends with response.failed", async () => {
  const events = await encodeParts(
    [start, { type: "text_start", index: 0 }],
    encodeStream(encodeContext()),
  );
  const error = (events.at(-1)?.response as { error: { code: string } }).error;
  assert.equal(error.code, "server_error");
  const empty = await encodeParts([], encodeStream(encodeContext()));
  assert.deepEqual(empty.map((e) => e.type), [
    "response.created",
    "response.in_progress",
    "response.failed",
  ]);
});

Deno.test("encodeStream: max_tokens ends with response.incomplete", async () => {
  const events = await encodeParts(
    [
      start,
      { type: "text_start", index: 0 },
      { type: "text_delta", index: 0, text: "cut" },
      finish("max_tokens"),
    ],
    encodeStream(encodeContext()),
  );
  const response = events.at(-1)?.response as Record<string, unknown>;
  assert.equal(events.at(-1)?.type, "response.incomplete");
  assert.deepEqual(response.incomplete_details, { reason: "max_output_tokens" });
  assert.equal(response.status, "incomplete");
});

Deno.test("encodeStream: namespaced, custom and local shell tools come back in their own shape", async () => {
  const { value: request } = decodeRequest({
    model: "m",
    input: "go",
    tools: [
      {
        type: "namespace",
        name: "mcp__docs__",
        tools: [{ type: "function", name: "search", parameters: {} }],
      },
      { type: "custom", name: "apply_patch", format: { type: "grammar" } },
      { type: "local_shell" },
    ],
  });
  const parts: StreamPart[] = [
    start,
    { type: "tool_call_start", index: 0, id: "c0", name: "mcp__docs__search", kind: "function" },
    { type: "tool_call_delta", index: 0, delta: '{"q":"x"}' },
    { type: "tool_call_end", index: 0 },
    { type: "tool_call_start", index: 1, id: "c1", name: "apply_patch", kind: "function" },
    { type: "tool_call_delta", index: 1, delta: '{"input":"*** Begin' },
    { type: "tool_call_delta", index: 1, delta: ' Patch"}' },
    { type: "tool_call_end", index: 1 },
    { type: "tool_call_start", index: 2, id: "c2", name: "apply_patch", kind: "custom" },
    { type: "tool_call_delta", index: 2, delta: "raw" },
    { type: "tool_call_end", index: 2 },
    { type: "tool_call_start", index: 3, id: "c3", name: "local_shell", kind: "function" },
    { type: "tool_call_delta", index: 3, delta: '{"command":["ls"]}' },
    { type: "tool_call_end", index: 3 },
    finish("tool_use"),
  ];
  const events = await encodeParts(parts, encodeStream(encodeContext(request)));
  const output = (events.at(-1)?.response as { output: Array<Record<string, unknown>> }).output;
  assert.deepEqual(output.map((o) => [o.type, o.name, o.namespace]), [
    ["function_call", "search", "mcp__docs__"],
    ["custom_tool_call", "apply_patch", undefined],
    ["custom_tool_call", "apply_patch", undefined],
    ["local_shell_call", undefined, undefined],
  ]);
  assert.equal(output[1]?.input, "*** Begin Patch");
  assert.equal(output[2]?.input, "raw");
  assert.deepEqual(output[3]?.action, { type: "exec", command: ["ls"], env: {} });
  const customDeltas = events.filter((e) => e.type === "response.custom_tool_call_input.delta");
  assert.deepEqual(customDeltas.map((e) => e.delta), ["*** Begin Patch", "raw"]);
  assert.equal(
    events.filter((e) => e.type === "response.function_call_arguments.delta").length,
    1,
    "the local shell call streams no argument deltas",
  );
});

Deno.test("encodeStream: encrypted content only when the client asked for it", async () => {
  const parts: StreamPart[] = [
    start,
    { type: "reasoning_start", index: 0, itemId: "rs_up" },
    { type: "reasoning_token", index: 0, token: { vendor: "anthropic", value: "sig" } },
    { type: "reasoning_end", index: 0, redacted: true },
    finish(),
  ];
  const without = await encodeParts(parts, encodeStream(encodeContext()));
  const item = (events: typeof without) =>
    (events.at(-1)?.response as { output: Array<Record<string, unknown>> }).output[0];
  assert.deepEqual(item(without), { type: "reasoning", id: "rs_up", summary: [] });
  const request = coreRequest({ reasoning: { mode: "adaptive", includeEncrypted: true } });
  const withToken = await encodeParts(parts, encodeStream(encodeContext(request)));
  assert.equal(item(withToken)?.encrypted_content, "gatehouse.v1.anthropic-redacted.sig");
});

Deno.test("encodeStream: a refusal's explanation is a refusal part with its delta and done events", async () => {
  const parts: StreamPart[] = [
    start,
    {
      type: "finish",
      stopReason: "refusal",
      stopDetails: { explanation: "Blocked by policy.", category: "cyber" },
      usage,
    },
  ];
  const events = await encodeParts(parts, encodeStream(encodeContext()));
  assert.deepEqual(events.map((e) => e.type), [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.content_part.added",
    "response.refusal.delta",
    "response.refusal.done",
    "response.content_part.done",
    "response.output_item.done",
    "response.completed",
  ]);
  const ids = { item_id: "msg_msg_abc_0", output_index: 0, content_index: 0 };
  const [, , added, partAdded, delta, done, partDone, itemDone, completed] = events;
  assert.deepEqual((added!.item as { content: unknown[] }).content, []);
  assert.deepEqual(partAdded, {
    type: "response.content_part.added",
    sequence_number: 3,
    ...ids,
    part: { type: "refusal", refusal: "" },
  });
  assert.deepEqual(delta, {
    type: "response.refusal.delta",
    sequence_number: 4,
    ...ids,
    delta: "Blocked by policy.",
  });
  assert.deepEqual(done, {
    type: "response.refusal.done",
    sequence_number: 5,
    ...ids,
    refusal: "Blocked by policy.",
  });
  assert.deepEqual(partDone!.part, { type: "refusal", refusal: "Blocked by policy." });
  const message = {
    type: "message",
    id: "msg_msg_abc_0",
    role: "assistant",
    status: "completed",
    content: [{ type: "refusal", refusal: "Blocked by policy." }],
  };
  assert.deepEqual(itemDone!.item, message);
  assert.deepEqual((completed!.response as { output: unknown[] }).output, [message]);
  const bytes = await pipe(parts, encodeStream(encodeContext()));
  const response = await sdkFinalResponse(bytes);
  const item = response.output[0];
  assert.ok(item?.type === "message");
  assert.deepEqual(item.content.map((c) => c.type === "refusal" ? c.refusal : c.type), [
    "Blocked by policy.",
  ]);
});

Deno.test("encodeStream: a refusal after text joins the open message", async () => {
  const events = await encodeParts([
    start,
    { type: "text_start", index: 0 },
    { type: "text_delta", index: 0, text: "Partly." },
    { type: "text_end", index: 0 },
    { type: "finish", stopReason: "refusal", stopDetails: { explanation: "No more." }, usage },
  ], encodeStream(encodeContext()));
  const refusal = events.find((e) => e.type === "response.refusal.done");
  assert.equal(refusal?.content_index, 1);
  const itemDone = events.find((e) => e.type === "response.output_item.done");
  assert.deepEqual((itemDone?.item as { content: unknown[] }).content, [
    { type: "output_text", text: "Partly.", annotations: [] },
    { type: "refusal", refusal: "No more." },
  ]);
});
