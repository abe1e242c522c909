/**
 * Turns recorded chunk lines into the SSE byte stream each wire uses.
 *
 * - Anthropic Messages and OpenAI Responses: `event: <type>\ndata: <line>\n\n` per line.
 * - OpenAI Chat Completions: `data: <line>\n\n` per line, then `data: [DONE]\n\n`.
 *
 * Lines are sent exactly as recorded (never re-serialized).
 * @module
 */

import { chunkType, type FixtureFolder } from "./fixtures.ts";

/** The three streaming wires. */
export type SseWire = "anthropic" | "responses" | "chat";

/** The streaming wire of a recorded folder (`undefined` for images, which never stream). */
export function wireOfFolder(folder: FixtureFolder): SseWire | undefined {
  switch (folder) {
    case "anthropic-messages":
      return "anthropic";
    case "openai-responses":
      return "responses";
    case "openai-chat":
      return "chat";
    case "openai-images":
      return undefined;
  }
}

/** A byte-size pattern that cuts events, lines and multi-byte characters at odd places. */
export const ODD_SPLIT: readonly number[] = [1, 3, 7, 2, 13, 5, 31, 1, 17];

/** Options for {@linkcode sseReplayStream}. */
export interface ReplayOptions {
  /** Wait this long before each event (ms). */
  delayMs?: number;
  /**
   * Re-cut the output into byte chunks of these sizes, cycling (`true` = {@linkcode ODD_SPLIT}).
   * The pattern runs across event boundaries, so one network chunk may end mid-line or mid-char.
   */
  splitBytes?: true | readonly number[];
  /** Send this many events, then keep the connection open without ever finishing. */
  hangAfterChunks?: number;
  /** Ends the stream early (truncated, without the remaining events) when aborted. */
  signal?: AbortSignal;
}

/** The SSE text of each event, in order (chat gets its closing `[DONE]`). */
export function frameEvents(wire: SseWire, lines: readonly string[]): string[] {
  switch (wire) {
    case "chat":
      return [...lines.map((line) => `data: ${line}\n\n`), "data: [DONE]\n\n"];
    case "anthropic":
    case "responses":
      return lines.map((line) => {
        const type = chunkType(line);
        if (type === undefined) throw new Error(`recorded ${wire} chunk has no type: ${line}`);
        return `event: ${type}\ndata: ${line}\n\n`;
      });
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Cycles through `sizes`; validates them up front. */
function cutter(sizes: readonly number[]): () => number {
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`splitBytes sizes must be positive integers, got ${JSON.stringify(sizes)}`);
  }
  let i = 0;
  return () => sizes[i++ % sizes.length] ?? 1;
}

/**
 * Streams pre-framed SSE events as bytes, honouring delay, byte splitting, hanging and abort.
 * Used by both fakes; {@linkcode sseReplayStream} is the recorded-lines entry point.
 */
export function sseEventStream(
  events: readonly string[],
  options: ReplayOptions = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const stop = new AbortController();
  const external = options.signal;
  const onExternalAbort = () => stop.abort(external?.reason);
  external?.addEventListener("abort", onExternalAbort, { once: true });
  const sizes = options.splitBytes === true ? ODD_SPLIT : options.splitBytes;
  const nextSize = sizes === undefined ? undefined : cutter(sizes);
  let want = nextSize?.() ?? 0;
  let pending = new Uint8Array(0);
  let next = 0;

  /** Enqueues `bytes` re-cut to the size pattern; whether anything was enqueued (a piece
   * smaller than the next size waits for the next event). */
  const emit = (controller: ReadableStreamDefaultController<Uint8Array>, bytes: Uint8Array) => {
    if (nextSize === undefined) {
      controller.enqueue(bytes);
      return true;
    }
    const joined = new Uint8Array(pending.length + bytes.length);
    joined.set(pending);
    joined.set(bytes, pending.length);
    let offset = 0;
    while (offset + want <= joined.length) {
      controller.enqueue(joined.slice(offset, offset + want));
      offset += want;
      want = nextSize();
    }
    pending = joined.slice(offset);
    return offset > 0;
  };
  const flush = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (pending.length > 0) controller.enqueue(pending);
    pending = new Uint8Array(0);
  };
  const cleanup = () => external?.removeEventListener("abort", onExternalAbort);

  return new ReadableStream<Uint8Array>({
    // A pull that enqueues nothing is not called again until the next read, which a reader
    // already waiting never makes: so one pull goes on until it enqueues or ends the stream.
    async pull(controller) {
      while (true) {
        if (options.hangAfterChunks !== undefined && next >= options.hangAfterChunks) {
          flush(controller);
          await new Promise<void>((resolve) => {
            if (stop.signal.aborted) return resolve();
            stop.signal.addEventListener("abort", () => resolve(), { once: true });
          });
        } else if (options.delayMs !== undefined && options.delayMs > 0) {
          await sleep(options.delayMs, stop.signal);
        }
        if (stop.signal.aborted) {
          // Ends the body early but cleanly: the reader sees a truncated stream, and Deno does
          // not log a body error for every fake that is closed mid-stream.
          cleanup();
          return controller.close();
        }
        const event = events[next++];
        if (event === undefined) {
          flush(controller);
          cleanup();
          return controller.close();
        }
        if (emit(controller, encoder.encode(event))) return;
      }
    },
    cancel(reason) {
      stop.abort(reason);
      cleanup();
    },
  });
}

/** The SSE byte stream of recorded chunk lines on `wire`. */
export function sseReplayStream(
  wire: SseWire,
  lines: readonly string[],
  options: ReplayOptions = {},
): ReadableStream<Uint8Array> {
  return sseEventStream(frameEvents(wire, lines), options);
}

/** Collects a byte stream as text (tests and assertions). */
export async function readAllText(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
