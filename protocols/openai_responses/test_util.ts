/**
 * Shared helpers for this folder's tests: recorded fixtures, a minimal request, stream
 * plumbing, and a Responses event-stream shape check.
 * @module
 */
import assert from "node:assert/strict";
import type { CoreRequest } from "../../core/request.ts";
import type { StreamPart } from "../../core/stream.ts";
import { parseSse, type SseEvent } from "../../sse/parse_sse.ts";
import type { EncodeContext } from "../codec.ts";
import { RESPONSES_EVENT_TYPES, RESPONSES_TERMINAL_EVENTS } from "./event_types.ts";

const FIXTURES = new URL("../../../shared/fixtures/recorded/openai-responses/", import.meta.url);

/** Names of the recorded stream fixtures (without `.chunks.txt`). */
export const STREAM_FIXTURES = [
  "openai-custom-tool.1",
  "openai-error.1",
  "openai-local-shell-tool.1",
  "openai-reasoning-encrypted-content.1",
  "openai-shell-local-multiturn.1",
  "parallel-tool-call-wrapper.1",
];

/** The recorded streams of a fixture as SSE events (one file may hold several responses, each
 * starting at `response.created`). The `event:` name is the JSON's `type`, as recorded. */
export async function fixtureStreams(name: string): Promise<SseEvent[][]> {
  const text = await Deno.readTextFile(new URL(`${name}.chunks.txt`, FIXTURES));
  const streams: SseEvent[][] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const type = /^\{"type":"([^"]+)"/.exec(line)?.[1];
    if (type === "response.created" || streams.length === 0) streams.push([]);
    streams.at(-1)?.push(type ? { event: type, data: line } : { data: line });
  }
  return streams;
}

/** A recorded JSON body. */
export async function fixtureJson(name: string): Promise<unknown> {
  return JSON.parse(await Deno.readTextFile(new URL(`${name}.json`, FIXTURES)));
}

/** A minimal core request. */
export function coreRequest(overrides: Partial<CoreRequest> = {}): CoreRequest {
  return {
    model: "gpt-5",
    system: [],
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    tools: [],
    stream: true,
    source: "openai_responses",
    ...overrides,
  };
}

/** An encode context for `request`. */
export function encodeContext(request: CoreRequest = coreRequest()): EncodeContext {
  return { clientModel: "client-model", request };
}

/** Runs `items` through `transform` and collects the output. */
export async function pipe<I, O>(items: I[], transform: TransformStream<I, O>): Promise<O[]> {
  return await Array.fromAsync(ReadableStream.from(items).pipeThrough(transform));
}

/** SSE bytes → events with parsed JSON data. */
export async function parseEvents(
  bytes: Uint8Array[],
): Promise<Array<Record<string, unknown> & { type: string }>> {
  const events = await pipe(bytes, parseSse());
  return events.map((e) => {
    const data = JSON.parse(e.data);
    assert.equal(e.event, data.type, "the SSE event name equals the JSON type");
    return data;
  });
}

/** Encodes parts with `encode` and returns the parsed events after checking the stream shape. */
export async function encodeParts(
  parts: StreamPart[],
  encode: TransformStream<StreamPart, Uint8Array>,
): Promise<Array<Record<string, unknown> & { type: string }>> {
  const events = await parseEvents(await pipe(parts, encode));
  assertValidStream(events);
  return events;
}

/** Checks what every Responses stream must satisfy: known event types, `sequence_number`
 * 0, 1, 2, ..., created then in_progress first, exactly one terminal event and it is last,
 * items added before their events and done once, indices in order. */
export function assertValidStream(events: Array<Record<string, unknown> & { type: string }>) {
  const known: readonly string[] = RESPONSES_EVENT_TYPES;
  const terminal: readonly string[] = RESPONSES_TERMINAL_EVENTS;
  events.forEach((e, i) => {
    assert.ok(known.includes(e.type), `unknown event type ${e.type}`);
    assert.equal(e.sequence_number, i, `sequence_number of event ${i}`);
  });
  assert.equal(events[0]?.type, "response.created");
  assert.equal(events[1]?.type, "response.in_progress");
  assert.equal(events.filter((e) => terminal.includes(e.type)).length, 1, "one terminal event");
  assert.ok(terminal.includes(events.at(-1)?.type ?? ""), "the terminal event is last");
  const ids = new Set(events.map((e) => (e.response as { id?: string } | undefined)?.id));
  ids.delete(undefined);
  assert.equal(ids.size, 1, "one response id across lifecycle events");
  const added = new Map<number, string>();
  const done = new Set<number>();
  for (const e of events) {
    if (e.type === "response.output_item.added") {
      const index = e.output_index as number;
      assert.equal(index, added.size, "output items are added in order");
      added.set(index, (e.item as { id: string }).id);
    } else if (typeof e.output_index === "number") {
      assert.ok(added.has(e.output_index), `${e.type} after its item was added`);
      assert.ok(!done.has(e.output_index), `${e.type} after its item was done`);
      if ("item_id" in e) assert.equal(e.item_id, added.get(e.output_index));
      if (e.type === "response.output_item.done") done.add(e.output_index);
    }
  }
  const last = events.at(-1);
  if (last?.type !== "response.failed") assert.equal(done.size, added.size, "every item done");
}

/** What a decoded stream said, block by block. */
export interface Collapsed {
  start?: Extract<StreamPart, { type: "start" }>;
  texts: string[];
  reasoning: Array<{ text: string; token?: string; itemId?: string }>;
  calls: Array<{ id: string; name: string; kind: string; arguments: string; itemId?: string }>;
  finish?: Extract<StreamPart, { type: "finish" }>;
  error?: Extract<StreamPart, { type: "error" }>;
}

/** Folds stream parts into blocks, checking each block starts before its deltas and ends once. */
export function collapse(parts: StreamPart[]): Collapsed {
  const out: Collapsed = { texts: [], reasoning: [], calls: [] };
  const open = new Map<number, { kind: string; at: number }>();
  for (const part of parts) {
    switch (part.type) {
      case "start":
        out.start = part;
        break;
      case "text_start":
        open.set(part.index, { kind: "text", at: out.texts.push("") - 1 });
        break;
      case "reasoning_start":
        open.set(part.index, {
          kind: "reasoning",
          at: out.reasoning.push({ text: "", ...(part.itemId ? { itemId: part.itemId } : {}) }) - 1,
        });
        break;
      case "tool_call_start":
        open.set(part.index, {
          kind: "call",
          at: out.calls.push({
            id: part.id,
            name: part.name,
            kind: part.kind,
            arguments: "",
            ...(part.itemId ? { itemId: part.itemId } : {}),
          }) - 1,
        });
        break;
      case "text_delta":
      case "reasoning_delta":
      case "reasoning_token":
      case "tool_call_delta": {
        const block = open.get(part.index);
        assert.ok(block, `${part.type} for an open block ${part.index}`);
        if (part.type === "text_delta") out.texts[block.at] += part.text;
        else if (part.type === "tool_call_delta") {
          const call = out.calls[block.at];
          if (call) call.arguments += part.delta;
        } else {
          const r = out.reasoning[block.at];
          if (r && part.type === "reasoning_delta") r.text += part.text;
          if (r && part.type === "reasoning_token") r.token = part.token.value;
        }
        break;
      }
      case "text_end":
      case "reasoning_end":
      case "tool_call_end":
        assert.ok(open.delete(part.index), `${part.type} closes an open block ${part.index}`);
        break;
      case "finish":
        out.finish = part;
        break;
      case "error":
        out.error = part;
        break;
    }
  }
  return out;
}
