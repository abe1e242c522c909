/**
 * Shared test helpers for the chat wire: a minimal core request, stream plumbing and the
 * recorded fixtures. Used only by `*_test.ts` files.
 * @module
 */
import type { CoreRequest } from "../../core/request.ts";
import type { StreamPart } from "../../core/stream.ts";
import { parseSse, type SseEvent } from "../../sse/parse_sse.ts";

/** A core request with defaults, overridden field by field. */
export function coreRequest(overrides: Partial<CoreRequest> = {}): CoreRequest {
  return {
    model: "gpt-test",
    system: [],
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    tools: [],
    stream: false,
    source: "openai_chat",
    ...overrides,
  };
}

/** Runs items through a transform stream and collects the output. */
export async function pipe<I, O>(items: I[], stream: TransformStream<I, O>): Promise<O[]> {
  return await Array.fromAsync(ReadableStream.from(items).pipeThrough(stream));
}

/** Data-only SSE events from JSON payloads (objects are stringified). */
export function events(...payloads: Array<unknown>): SseEvent[] {
  return payloads.map((p) => ({ data: typeof p === "string" ? p : JSON.stringify(p) }));
}

/** Encoded SSE bytes → events. */
export async function sseOf(bytes: Uint8Array[]): Promise<SseEvent[]> {
  return await pipe(bytes, parseSse());
}

/** The SSE byte stream of a list of parts, as a single string. */
export function textOf(bytes: Uint8Array[]): string {
  const decoder = new TextDecoder();
  return bytes.map((b) => decoder.decode(b)).join("");
}

/** A recorded openai-chat fixture file. */
export function fixtureUrl(name: string): URL {
  return new URL(`../../../shared/fixtures/recorded/openai-chat/${name}`, import.meta.url);
}

/** A `*.chunks.txt` fixture as the SSE events a server sends, `[DONE]` included. */
export async function fixtureEvents(name: string): Promise<SseEvent[]> {
  const text = await Deno.readTextFile(fixtureUrl(name));
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return [...lines.map((data) => ({ data })), { data: "[DONE]" }];
}

/** A `*.json` fixture body. */
export async function fixtureJson(name: string): Promise<unknown> {
  return JSON.parse(await Deno.readTextFile(fixtureUrl(name)));
}

/** Concatenated deltas of one kind. */
export function joined(parts: StreamPart[], type: "text_delta" | "reasoning_delta"): string {
  return parts.map((p) => (p.type === type ? p.text : "")).join("");
}

/** The parts of one type. */
export function ofType<T extends StreamPart["type"]>(
  parts: StreamPart[],
  type: T,
): Array<Extract<StreamPart, { type: T }>> {
  return parts.filter((p): p is Extract<StreamPart, { type: T }> => p.type === type);
}
