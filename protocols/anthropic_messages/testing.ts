/**
 * Helpers shared by this folder's tests: a minimal core request, fixture loading and stream
 * plumbing (events → parts, parts → parsed SSE).
 * @module
 */
import type { CoreRequest } from "../../core/request.ts";
import type { StreamPart } from "../../core/stream.ts";
import { parseSse, type SseEvent } from "../../sse/parse_sse.ts";
import type { EncodeContext } from "../codec.ts";
import { decodeStream } from "./decode_stream.ts";
import { encodeStream } from "./encode_stream.ts";

/** A core request with the given fields over empty defaults. */
export function coreRequest(fields: Partial<CoreRequest> = {}): CoreRequest {
  return {
    model: "claude-test",
    system: [],
    messages: [],
    tools: [],
    stream: false,
    source: "openai_chat",
    ...fields,
  };
}

/** An encode context for a client that asked for `clientModel`. */
export function encodeContext(
  fields: Partial<CoreRequest> = {},
  clientModel = "client-model",
): EncodeContext {
  return { clientModel, request: coreRequest({ source: "anthropic_messages", ...fields }) };
}

const FIXTURES = new URL("../../../shared/fixtures/recorded/anthropic-messages/", import.meta.url);

/** Names of the recorded fixture files ending in `suffix`. */
export function fixtureNames(suffix: string): string[] {
  return [...Deno.readDirSync(FIXTURES)]
    .map((entry) => entry.name)
    .filter((name) => name.endsWith(suffix))
    .sort();
}

/** A `*.chunks.txt` fixture as SSE events (the `event:` name is the JSON's `type`). */
export function fixtureEvents(name: string): SseEvent[] {
  return Deno.readTextFileSync(new URL(name, FIXTURES))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((data) => ({ event: (JSON.parse(data) as { type: string }).type, data }));
}

/** A `*.json` fixture, parsed. */
export function fixtureJson(name: string): unknown {
  return JSON.parse(Deno.readTextFileSync(new URL(name, FIXTURES)));
}

/** Events of `payloads` as the SSE events an Anthropic server sends. */
export function events(...payloads: Array<{ type: string } & Record<string, unknown>>): SseEvent[] {
  return payloads.map((p) => ({ event: p.type, data: JSON.stringify(p) }));
}

/** Runs SSE events through the upstream stream decoder. */
export async function decodeEvents(
  input: SseEvent[],
  request: CoreRequest = coreRequest(),
): Promise<StreamPart[]> {
  return await Array.fromAsync(
    ReadableStream.from(input).pipeThrough(decodeStream(request, "anthropic")),
  );
}

/** Runs parts through the client stream encoder and parses the SSE it writes. */
export async function encodeParts(
  parts: StreamPart[],
  ctx: EncodeContext = encodeContext(),
): Promise<Array<{ event?: string; json: Record<string, unknown> }>> {
  const sse = ReadableStream.from(parts).pipeThrough(encodeStream(ctx)).pipeThrough(parseSse());
  const out = await Array.fromAsync(sse);
  return out.map((e) => ({ event: e.event, json: JSON.parse(e.data) }));
}

/** Checks that `stream` is a well-formed Messages event stream: message_start first, blocks
 * opened with contiguous indices, every delta inside its open block, all blocks closed before
 * message_delta, message_stop last. Throws with the reason otherwise. */
export function assertValidMessagesStream(
  stream: Array<{ event?: string; json: Record<string, unknown> }>,
): void {
  const fail = (why: string) => {
    throw new Error(
      `invalid Messages stream: ${why}\n${JSON.stringify(stream.map((e) => e.json))}`,
    );
  };
  if (stream[0]?.json.type !== "message_start") fail("first event is not message_start");
  const last = stream.at(-1)?.json.type;
  if (last !== "message_stop" && last !== "error") fail(`last event is ${last}`);
  const open = new Set<number>();
  let next = 0;
  let delta = false;
  for (const { event, json } of stream) {
    if (event !== json.type) fail(`event name ${event} differs from type ${json.type}`);
    const index = json.index as number;
    switch (json.type) {
      case "content_block_start":
        if (delta) fail("block after message_delta");
        if (index !== next++) fail(`block index ${index} is not contiguous`);
        open.add(index);
        break;
      case "content_block_delta":
        if (!open.has(index)) fail(`delta for closed block ${index}`);
        break;
      case "content_block_stop":
        if (!open.delete(index)) fail(`stop for closed block ${index}`);
        break;
      case "message_delta":
        if (open.size > 0) fail("message_delta with open blocks");
        delta = true;
        break;
    }
  }
  if (last === "message_stop" && !delta) fail("no message_delta");
}
