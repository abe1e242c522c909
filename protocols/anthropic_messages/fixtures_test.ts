import assert from "node:assert/strict";
import type { StreamPart } from "../../core/stream.ts";
import type { CoreResponse } from "../../core/response.ts";
import { decodeResponse } from "./decode_response.ts";
import { encodeResponse } from "./encode_response.ts";
import {
  assertValidMessagesStream,
  coreRequest,
  decodeEvents,
  encodeContext,
  encodeParts,
  fixtureEvents,
  fixtureJson,
  fixtureNames,
} from "./testing.ts";

/** What a stream or body says, block by block, independent of its framing. */
interface Summary {
  blocks: Array<
    | { kind: "text"; text: string }
    | { kind: "reasoning"; text: string; token: string; redacted: boolean }
    | { kind: "tool"; id: string; name: string; input: unknown }
  >;
  stopReason?: string;
  stopDetails?: { explanation?: string; category?: string };
}

/** A wire `stop_details` as core holds it (its explanation and category), or undefined. */
function coreDetails(wire: unknown): Summary["stopDetails"] {
  if (typeof wire !== "object" || wire === null) return undefined;
  const { explanation, category } = wire as Record<string, string | undefined>;
  return { explanation, category };
}

/** Summarizes decoded core parts. */
function summarizeParts(parts: StreamPart[]): Summary {
  const byIndex = new Map<number, Summary["blocks"][number]>();
  const args = new Map<number, string>();
  const summary: Summary = { blocks: [] };
  for (const part of parts) {
    switch (part.type) {
      case "text_start":
        byIndex.set(part.index, { kind: "text", text: "" });
        break;
      case "reasoning_start":
        byIndex.set(part.index, { kind: "reasoning", text: "", token: "", redacted: false });
        break;
      case "tool_call_start":
        byIndex.set(part.index, { kind: "tool", id: part.id, name: part.name, input: null });
        args.set(part.index, "");
        break;
      case "text_delta":
      case "reasoning_delta": {
        const block = byIndex.get(part.index) as { text: string };
        block.text += part.text;
        break;
      }
      case "reasoning_token": {
        const block = byIndex.get(part.index) as { token: string };
        block.token += part.token.value;
        break;
      }
      case "tool_call_delta":
        args.set(part.index, (args.get(part.index) ?? "") + part.delta);
        break;
      case "reasoning_end":
        (byIndex.get(part.index) as { redacted: boolean }).redacted = part.redacted === true;
        break;
      case "tool_call_end":
        // Every tool call must end with arguments that parse: clients need valid JSON.
        (byIndex.get(part.index) as { input: unknown }).input = JSON.parse(args.get(part.index)!);
        break;
      case "finish":
        summary.stopReason = part.stopReason;
        if (part.stopDetails) summary.stopDetails = part.stopDetails;
        break;
    }
  }
  summary.blocks = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  return summary;
}

/** Summarizes the raw fixture events the way a reader of the transcript would. */
function summarizeRaw(lines: Array<Record<string, unknown>>): Summary {
  const summary: Summary = { blocks: [] };
  const byIndex = new Map<number, Summary["blocks"][number] & { json?: string }>();
  for (const e of lines) {
    const block = e.content_block as Record<string, string> | undefined;
    const delta = e.delta as Record<string, string> | undefined;
    if (e.type === "content_block_start" && block) {
      const index = e.index as number;
      if (block.type === "text") byIndex.set(index, { kind: "text", text: block.text ?? "" });
      if (block.type === "thinking") {
        byIndex.set(index, { kind: "reasoning", text: "", token: "", redacted: false });
      }
      if (block.type === "tool_use") {
        byIndex.set(index, {
          kind: "tool",
          id: block.id!,
          name: block.name!,
          input: null,
          json: "",
        });
      }
    } else if (e.type === "content_block_delta" && delta) {
      const target = byIndex.get(e.index as number) as {
        text: string;
        token: string;
        json: string;
      };
      if (delta.type === "text_delta") target.text += delta.text!;
      if (delta.type === "thinking_delta") target.text += delta.thinking!;
      if (delta.type === "signature_delta") target.token += delta.signature!;
      if (delta.type === "input_json_delta") target.json += delta.partial_json!;
    } else if (e.type === "message_delta" && delta) {
      summary.stopReason = delta.stop_reason;
      const details = coreDetails(delta.stop_details);
      if (details) summary.stopDetails = details;
    }
  }
  summary.blocks = [...byIndex.values()].map((block) => {
    if (block.kind !== "tool") return block;
    const { json, ...rest } = block;
    return { ...rest, input: JSON.parse(json || "{}") };
  });
  return summary;
}

/** The Anthropic stop reason core maps to, for comparing against the transcript. */
const coreStop = (wire: string | undefined) =>
  wire === "model_context_window_exceeded" ? "context_window_exceeded" : wire;

for (const name of fixtureNames(".chunks.txt")) {
  Deno.test(`fixture ${name}: decodeStream matches the transcript`, async () => {
    const events = fixtureEvents(name);
    const parts = await decodeEvents(events);
    assert.equal(parts[0]?.type, "start");
    assert.equal(parts.at(-1)?.type, "finish");
    assert.equal(parts.filter((p) => p.type === "error").length, 0);
    const raw = events.map((e) => JSON.parse(e.data) as Record<string, unknown>);
    const expected = summarizeRaw(raw);
    assert.deepEqual(summarizeParts(parts), {
      ...expected,
      stopReason: coreStop(expected.stopReason),
    });

    const start = parts[0] as Extract<StreamPart, { type: "start" }>;
    const message = raw[0]!.message as { id: string; model: string; usage: Record<string, number> };
    assert.equal(start.id, message.id);
    assert.equal(start.model, message.model);
    const finish = parts.at(-1) as Extract<StreamPart, { type: "finish" }>;
    const deltaUsage = raw.find((e) => e.type === "message_delta")!.usage as Record<string, number>;
    assert.equal(finish.usage.outputTokens, deltaUsage.output_tokens);
    const inputFrom = deltaUsage.input_tokens !== undefined ? deltaUsage : message.usage;
    assert.equal(
      finish.usage.inputTokens,
      inputFrom.input_tokens! + (inputFrom.cache_read_input_tokens ?? 0) +
        (inputFrom.cache_creation_input_tokens ?? 0),
    );
  });

  Deno.test(`fixture ${name}: round trip through encodeStream is a valid Messages stream`, async () => {
    const parts = await decodeEvents(fixtureEvents(name));
    const encoded = await encodeParts(parts);
    assertValidMessagesStream(encoded);
    assert.equal(encoded.at(-1)?.json.type, "message_stop");
    const start = encoded[0]!.json.message as { model: string; id: string };
    assert.equal(start.model, "client-model");
    assert.match(start.id, /^msg_/);
    // Reading our own output back gives the same content.
    const again = await decodeEvents(
      encoded.map((e) => ({ event: e.event, data: JSON.stringify(e.json) })),
    );
    assert.deepEqual(summarizeParts(again), summarizeParts(parts));
    const finish = parts.at(-1) as Extract<StreamPart, { type: "finish" }>;
    const finishAgain = again.at(-1) as Extract<StreamPart, { type: "finish" }>;
    assert.deepEqual(finishAgain.usage, finish.usage);
  });
}

/** Summarizes a core response. */
function summarizeResponse(response: CoreResponse): Summary {
  return {
    stopReason: response.stopReason,
    ...(response.stopDetails ? { stopDetails: response.stopDetails } : {}),
    blocks: response.content.map((part) => {
      switch (part.type) {
        case "text":
          return { kind: "text", text: part.text };
        case "reasoning":
          return {
            kind: "reasoning",
            text: part.text,
            token: part.token?.value ?? "",
            redacted: part.redacted === true,
          };
        case "tool_call":
          return { kind: "tool", id: part.id, name: part.name, input: JSON.parse(part.arguments) };
      }
    }),
  };
}

for (const name of fixtureNames(".json")) {
  Deno.test(`fixture ${name}: decodeResponse and encodeResponse keep the content`, () => {
    const body = fixtureJson(name) as Record<string, unknown>;
    const { value, warnings } = decodeResponse(body, coreRequest(), "anthropic");
    // The model a refusal recommends is an upstream id: the only field said to be dropped.
    const details = body.stop_details as Record<string, unknown> | null | undefined;
    assert.deepEqual(
      warnings.map((w) => w.field),
      details?.recommended_model ? ["stop_details.recommended_model"] : [],
    );
    assert.equal(value.id, body.id);
    assert.equal(value.model, body.model);
    const usage = body.usage as Record<string, number>;
    assert.equal(
      value.usage.inputTokens,
      usage.input_tokens! + usage.cache_read_input_tokens! + usage.cache_creation_input_tokens!,
    );
    assert.equal(value.usage.outputTokens, usage.output_tokens);
    const content = body.content as Array<Record<string, unknown>>;
    const expected: Summary = {
      stopReason: coreStop(body.stop_reason as string),
      ...(details ? { stopDetails: coreDetails(details) } : {}),
      blocks: content.map((block) =>
        block.type === "text"
          ? { kind: "text", text: block.text as string }
          : block.type === "thinking"
          ? {
            kind: "reasoning",
            text: block.thinking as string,
            token: block.signature as string,
            redacted: false,
          }
          : { kind: "tool", id: block.id as string, name: block.name as string, input: block.input }
      ),
    };
    assert.deepEqual(summarizeResponse(value), expected);

    // Encoding for an Anthropic client gives back the provider's blocks and counts.
    const encoded = encodeResponse(value, encodeContext({}, body.model as string));
    assert.deepEqual(encoded.warnings, []);
    assert.deepEqual(encoded.value.content, body.content);
    assert.equal(encoded.value.stop_reason, body.stop_reason);
    const { recommended_model: _, ...shown } = details ?? {};
    assert.deepEqual(encoded.value.stop_details, details ? shown : null);
    assert.equal(encoded.value.usage.input_tokens, usage.input_tokens);
    assert.equal(encoded.value.usage.output_tokens, usage.output_tokens);
    assert.equal(encoded.value.id, body.id);
  });
}

Deno.test("fixture anthropic-claude-opus-5-reasoning-high: thinking tokens become reasoningTokens", () => {
  const body = fixtureJson("anthropic-claude-opus-5-reasoning-high.1.json");
  const { value } = decodeResponse(body, coreRequest(), "anthropic");
  assert.equal(value.usage.reasoningTokens, 139);
  assert.equal(value.usage.outputTokens, 1699);
});

Deno.test("fixture anthropic-tool-no-args: the tool call gets {} as arguments", async () => {
  const parts = await decodeEvents(fixtureEvents("anthropic-tool-no-args.chunks.txt"));
  const deltas = parts.filter((p) => p.type === "tool_call_delta");
  assert.deepEqual(deltas, [{ type: "tool_call_delta", index: 1, delta: "{}" }]);
});

Deno.test("fixture anthropic-message-delta-input-tokens: input tokens from message_delta win", async () => {
  const parts = await decodeEvents(
    fixtureEvents("anthropic-message-delta-input-tokens.chunks.txt"),
  );
  const start = parts[0] as Extract<StreamPart, { type: "start" }>;
  assert.equal(start.usage?.inputTokens, 43);
  const finish = parts.at(-1) as Extract<StreamPart, { type: "finish" }>;
  assert.equal(finish.usage.inputTokens, 61);
  assert.equal(finish.usage.outputTokens, 2);
});

Deno.test("fixture anthropic-refusal: a refusal without blocks keeps its stop reason and details", async () => {
  const parts = await decodeEvents(fixtureEvents("anthropic-refusal.chunks.txt"));
  assert.deepEqual(parts.map((p) => p.type), ["start", "finish"]);
  const finish = parts[1] as Extract<StreamPart, { type: "finish" }>;
  assert.equal(finish.stopReason, "refusal");
  const recorded = fixtureJson("anthropic-refusal.json") as {
    stop_details: { category: string; explanation: string };
  };
  const { category, explanation } = recorded.stop_details;
  assert.deepEqual(finish.stopDetails, { category, explanation });
  const encoded = await encodeParts(parts);
  assert.deepEqual(encoded.map((e) => e.json.type), [
    "message_start",
    "message_delta",
    "message_stop",
  ]);
  assert.deepEqual(encoded[1]!.json.delta, {
    stop_reason: "refusal",
    stop_sequence: null,
    stop_details: { type: "refusal", category, explanation },
  });
});
