import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import type { SseEvent } from "../../sse/parse_sse.ts";
import { shortenToolName } from "../tool_names.ts";
import { decodeStream } from "./decode_stream.ts";
import { collapse, coreRequest, fixtureStreams, pipe, STREAM_FIXTURES } from "./test_util.ts";

type Json = Record<string, unknown>;

const decode = async (events: SseEvent[], request = coreRequest()) =>
  collapse(await pipe(events, decodeStream("openai", request)));

const ev = (data: Json): SseEvent => ({ event: String(data.type), data: JSON.stringify(data) });

/** The completed items of a recorded stream, read from its output_item.done events. */
function doneItems(events: SseEvent[]): Json[] {
  return events.flatMap((e) => {
    try {
      const d = JSON.parse(e.data);
      return d.type === "response.output_item.done" ? [d.item as Json] : [];
    } catch {
      return [];
    }
  });
}

Deno.test("decodeStream: every recorded stream matches its transcript", async () => {
  // The parallel wrapper has its own test (it expands into other calls).
  for (const name of STREAM_FIXTURES.filter((n) => !n.startsWith("parallel"))) {
    for (const events of await fixtureStreams(name)) {
      const got = await decode(events);
      const items = doneItems(events);
      const texts = items.filter((i) => i.type === "message").flatMap((i) =>
        (i.content as Json[]).map((c) => c.text)
      );
      assert.deepEqual(got.texts, texts, `${name}: text`);
      const calls = items.filter((i) => String(i.type).endsWith("_call"));
      assert.deepEqual(got.calls.map((c) => c.id), calls.map((c) => c.call_id), `${name}: calls`);
      for (const [i, call] of calls.entries()) {
        const expected = call.type === "function_call"
          ? call.arguments
          : call.type === "custom_tool_call"
          ? call.input
          : JSON.stringify({ command: (call.action as Json).command });
        assert.equal(got.calls[i]?.arguments, expected, `${name}: arguments of call ${i}`);
        assert.equal(got.calls[i]?.itemId, call.id);
      }
      const reasoning = items.filter((i) => i.type === "reasoning" && i.encrypted_content);
      assert.deepEqual(
        got.reasoning.map((r) => r.token),
        reasoning.map((r) => r.encrypted_content),
        `${name}: reasoning tokens (from output_item.done)`,
      );
      const terminal = events.map((e) => e.data).find((d) => d.includes('"response.completed"'));
      if (name === "openai-error.1") continue;
      assert.ok(terminal && got.finish, `${name}: finish`);
      const usage = JSON.parse(terminal).response.usage;
      assert.equal(got.finish.usage.inputTokens, usage.input_tokens);
      assert.equal(got.finish.usage.outputTokens, usage.output_tokens);
      assert.equal(got.finish.usage.reasoningTokens, usage.output_tokens_details.reasoning_tokens);
      assert.equal(got.finish.stopReason, calls.length > 0 ? "tool_use" : "end_turn");
    }
  }
});

Deno.test("decodeStream: encrypted reasoning keeps its summary text and item id", async () => {
  const [first] = await fixtureStreams("openai-reasoning-encrypted-content.1");
  const got = await decode(first ?? []);
  assert.equal(
    got.reasoning[0]?.text,
    "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the " +
      "result by 3, and finally multiply that by 10, reporting the final product.",
  );
  assert.equal(got.reasoning[0]?.itemId, "rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9");
  assert.equal(got.calls[0]?.arguments, '{"a":12,"b":7,"op":"add"}');
});

Deno.test("decodeStream: a reasoning item with nothing in it opens no block", async () => {
  const [events] = await fixtureStreams("openai-local-shell-tool.1");
  const got = await decode(events ?? []);
  assert.equal(got.reasoning.length, 0);
  assert.deepEqual(got.calls[0], {
    id: "call_h3nm8hUG0KO9tVNuRACkL1ri",
    name: "local_shell",
    kind: "local_shell",
    arguments: '{"command":["ls","-a","~"]}',
    itemId: "lsh_68da7fd99b3c8194bd624b18c0c0851b0faf5df54b42d9a6",
  });
});

Deno.test("decodeStream: the error event becomes an error part with the quota code", async () => {
  const [events] = await fixtureStreams("openai-error.1");
  const got = await decode(events ?? []);
  assert.ok(got.error);
  assert.ok(got.error.error instanceof GatewayError);
  assert.equal(got.error.error.code, "insufficient_quota");
  assert.equal(got.error.error.status, 429);
  assert.match(got.error.error.message, /exceeded your current quota/);
  assert.equal(got.finish, undefined);
});

Deno.test("decodeStream: the parallel wrapper expands; malformed frames end in an error", async () => {
  const [events] = await fixtureStreams("parallel-tool-call-wrapper.1");
  const request = coreRequest({
    tools: [
      { type: "function", name: "weather", parameters: {} },
      { type: "function", name: "cityAttractions", parameters: {} },
    ],
  });
  const got = await decode(events ?? [], request);
  assert.deepEqual(got.calls, [
    {
      id: "call_parallel_0",
      name: "weather",
      kind: "function",
      arguments: '{"location":"San Francisco"}',
    },
    {
      id: "call_parallel_1",
      name: "cityAttractions",
      kind: "function",
      arguments: '{"city":"Rome"}',
    },
  ]);
  assert.equal(got.error?.error.code, "stream_incomplete");
  assert.match(got.error?.error.message ?? "", /2 events could not be parsed/);
});

Deno.test("decodeStream: a declared tool named parallel is not expanded", async () => {
  const request = coreRequest({ tools: [{ type: "function", name: "parallel", parameters: {} }] });
  const item = {
    type: "function_call",
    id: "fc_1",
    call_id: "c1",
    name: "parallel",
    arguments: "{}",
  };
  const got = await decode([
    ev({ type: "response.output_item.added", output_index: 0, item: { ...item, arguments: "" } }),
    ev({ type: "response.output_item.done", output_index: 0, item }),
    ev({ type: "response.completed", response: { status: "completed" } }),
  ], request);
  assert.deepEqual(got.calls.map((c) => [c.name, c.arguments]), [["parallel", "{}"]]);
});

Deno.test("decodeStream: calls and text without deltas are emitted whole at done", async () => {
  const long = "mcp__a_server_with_a_rather_long_name__and_a_tool_with_a_long_name_too";
  const request = coreRequest({ tools: [{ type: "function", name: long, parameters: {} }] });
  const call = {
    type: "function_call",
    id: "fc_9",
    call_id: "call_9",
    name: shortenToolName(long),
    arguments: '{"x":1}',
  };
  const message = {
    type: "message",
    id: "msg_1",
    role: "assistant",
    content: [{ type: "output_text", text: "Hello" }, { type: "refusal", refusal: "No." }],
  };
  const got = await decode([
    ev({ type: "response.created", response: { id: "resp_x", model: "m", created_at: 5 } }),
    ev({ type: "response.output_item.done", output_index: 0, item: message }),
    ev({ type: "response.output_item.done", output_index: 1, item: call }),
    ev({ type: "response.completed", response: { status: "completed", usage: null } }),
  ], request);
  assert.deepEqual(got.texts, ["Hello"]);
  assert.deepEqual(got.finish?.stopDetails, { explanation: "No." });
  assert.deepEqual(got.calls, [{
    id: "call_9",
    name: long,
    kind: "function",
    arguments: '{"x":1}',
    itemId: "fc_9",
  }]);
  assert.equal(got.finish?.stopReason, "tool_use");
  assert.deepEqual(got.start, { type: "start", id: "resp_x", model: "m", created: 5 });
});

Deno.test("decodeStream: refusal content gives stop reason refusal and its stop details", async () => {
  const got = await decode([
    ev({ type: "response.output_item.added", output_index: 0, item: { type: "message" } }),
    ev({
      type: "response.content_part.added",
      output_index: 0,
      content_index: 0,
      part: { type: "refusal", refusal: "" },
    }),
    ev({ type: "response.refusal.delta", output_index: 0, content_index: 0, delta: "I can't" }),
    ev({ type: "response.refusal.done", output_index: 0, content_index: 0, refusal: "I can't." }),
    ev({ type: "response.completed", response: { status: "completed" } }),
  ]);
  assert.deepEqual(got.texts, []);
  assert.equal(got.finish?.stopReason, "refusal");
  assert.deepEqual(got.finish?.stopDetails, { explanation: "I can't." });
  assert.ok(got.start, "a start part is synthesized when response.created is missing");
});

Deno.test("decodeStream: incomplete responses map their reason", async () => {
  for (
    const [reason, stop] of [["max_output_tokens", "max_tokens"], [
      "content_filter",
      "content_filter",
    ]]
  ) {
    const got = await decode([
      ev({
        type: "response.incomplete",
        response: {
          status: "incomplete",
          incomplete_details: { reason },
          usage: { output_tokens: 7 },
        },
      }),
    ]);
    assert.equal(got.finish?.stopReason, stop);
    assert.equal(got.finish?.usage.outputTokens, 7);
  }
});

Deno.test("decodeStream: response.failed maps its code to a gateway error", async () => {
  const cases: Array<[string, string, number]> = [
    ["rate_limit_exceeded", "rate_limit", 429],
    ["context_length_exceeded", "invalid_request", 400],
    ["server_error", "upstream", 502],
  ];
  for (const [code, kind, status] of cases) {
    const got = await decode([
      ev({
        type: "response.failed",
        response: { status: "failed", error: { code, message: "m" } },
      }),
    ]);
    assert.equal(got.error?.error.kind, kind);
    assert.equal(got.error?.error.status, status);
    assert.equal(got.error?.error.code, code);
  }
});

Deno.test("decodeStream: multiple summary parts join with a blank line, raw reasoning text too", async () => {
  const got = await decode([
    ev({
      type: "response.output_item.added",
      output_index: 0,
      item: { type: "reasoning", id: "rs_1" },
    }),
    ev({ type: "response.reasoning_summary_part.added", output_index: 0, summary_index: 0 }),
    ev({ type: "response.reasoning_summary_text.delta", output_index: 0, delta: "One." }),
    ev({ type: "response.reasoning_summary_part.added", output_index: 0, summary_index: 1 }),
    ev({ type: "response.reasoning_summary_text.delta", output_index: 0, delta: "Two." }),
    ev({
      type: "response.output_item.done",
      output_index: 0,
      item: { type: "reasoning", id: "rs_1", summary: [{ text: "One." }, { text: "Two." }] },
    }),
    ev({ type: "response.output_item.added", output_index: 1, item: { type: "reasoning" } }),
    ev({ type: "response.reasoning_text.delta", output_index: 1, delta: "raw" }),
    ev({ type: "response.output_item.done", output_index: 1, item: { type: "reasoning" } }),
    ev({ type: "response.completed", response: { status: "completed" } }),
  ]);
  assert.deepEqual(got.reasoning, [{ text: "One.\n\nTwo.", itemId: "rs_1" }, { text: "raw" }]);
});

Deno.test("decodeStream: a stream that just stops is an error; later events are ignored", async () => {
  const cut = await decode([ev({ type: "response.created", response: { id: "r" } })]);
  assert.equal(cut.error?.error.status, 502);
  assert.match(cut.error?.error.message ?? "", /before response.completed/);
  const parts = await pipe([
    ev({ type: "response.completed", response: { status: "completed" } }),
    ev({ type: "response.output_item.added", output_index: 0, item: { type: "message" } }),
  ], decodeStream("openai", coreRequest()));
  assert.deepEqual(parts.map((p) => p.type), ["start", "finish"]);
});

Deno.test("decodeStream: data-only events use the JSON type", async () => {
  const got = await decode([
    { data: JSON.stringify({ type: "response.completed", response: { status: "completed" } }) },
  ]);
  assert.equal(got.finish?.stopReason, "end_turn");
});
