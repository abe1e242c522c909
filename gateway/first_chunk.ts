/**
 * A streamed answer is committed to the client only once its first chunk arrived: until then
 * nothing has reached the client, so a stream that breaks, ends or goes silent before it, or
 * whose first chunk holds the wire's error event before any generated text (Anthropic sends
 * `overloaded_error` this way after a 200), is a failed attempt that may be retried elsewhere.
 * An error after text was generated is the stream's own ending, as when it comes later.
 * @module
 */
import type { ChunkReader } from "../core/chunk_reader.ts";
import { streamIncomplete } from "../core/errors.ts";
import type { HeaderReader } from "../core/header_reader.ts";
import type { StreamEnds } from "../protocols/codec.ts";
import type { ForwardCodec } from "../protocols/codec.ts";
import { parseEventBlock } from "../sse/parse_sse.ts";
import { AttemptFailed } from "./attempt_failure.ts";
import type { Lifecycle } from "./lifecycle.ts";

/** Error types and codes that say "not now" rather than "not this request" (matched against
 * the type or code only: a message may quote anything, a tool name for one). */
const TRANSIENT = /overloaded|rate_limit|server_error|api_error|internal|unavailable|timeout/i;

/** The status an error event of `kind` would have had as an HTTP answer. */
function statusOf(kind: string): number {
  if (/overloaded/i.test(kind)) return 529;
  if (/rate_limit/i.test(kind)) return 429;
  return 500;
}

interface ErrorBody {
  type?: unknown;
  code?: unknown;
}

/** The error object of an error event: Anthropic's and chat's `error`, Responses'
 * `response.error`. */
function errorOf(data: string): { body: unknown; kind: string } | null {
  let parsed: { error?: ErrorBody; response?: { error?: ErrorBody } };
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  const error = parsed?.response?.error ?? parsed?.error;
  if (error === undefined || error === null || typeof error !== "object") return null;
  const kind = [error.type, error.code].filter((v) => typeof v === "string").join(" ");
  // The codecs read an error body: Responses' event carries its error inside the response.
  return { body: parsed.response?.error ? { error } : parsed, kind };
}

/** What the check needs of the attempt. */
export interface FirstChunkCheck {
  life: Lifecycle;
  provider: string;
  /** The wire's codec: its error bodies, the text an event carries, and (made only when the
   * chunk may hold an error) a watcher of how its streams end. */
  codec: Pick<ForwardCodec, "decodeError" | "outputTextOfEvent"> & { streamEnds?(): StreamEnds };
  headers: HeaderReader;
}

/** The failed attempt of a stream that came with no body at all. */
export function emptyStream(provider: string): AttemptFailed {
  return new AttemptFailed("cut", 200, streamIncomplete(provider, "its first event"));
}

/** Waits for `reader`'s first chunk; returns a reader that yields it first, or throws
 * {@link AttemptFailed} when the stream failed before it. */
export async function firstChunk(
  reader: ChunkReader<Uint8Array>,
  check: FirstChunkCheck,
): Promise<ChunkReader<Uint8Array>> {
  const { life, provider } = check;
  let first = await reader.read();
  // A chunked body's first read may be empty: it says nothing yet.
  while (first !== null && first.length === 0) first = await reader.read();
  if (first === null) {
    // A stream ended for silence names the timeout; one that broke off, the cut.
    reader.cancel().catch(() => {});
    const silent = life.streamError;
    throw silent === null ? emptyStream(provider) : new AttemptFailed("cut", 200, silent);
  }
  const failure = errorEvent(first, check);
  if (failure !== null) {
    reader.cancel().catch(() => {});
    throw failure;
  }
  let pending: Uint8Array | null = first;
  return {
    read: () => {
      const chunk = pending;
      if (chunk === null) return reader.read();
      pending = null;
      return Promise.resolve(chunk);
    },
    cancel: (reason) => {
      pending = null;
      return reader.cancel(reason);
    },
  };
}

const utf8 = new TextDecoder();

/** Every wire's error event says "error" (Anthropic's `event: error`, chat's `{"error":`,
 * Responses' `"error":` inside `response.failed`): a first chunk without the word, the usual
 * case, is not parsed (it may hold the whole answer). */
const ERROR_WORD = "error";

/** The failure a transient error event among the chunk's complete events stands for. */
function errorEvent(chunk: Uint8Array, check: FirstChunkCheck): AttemptFailed | null {
  if (check.codec.streamEnds === undefined) return null;
  const text = utf8.decode(chunk);
  if (!text.includes(ERROR_WORD)) return null;
  const ends = check.codec.streamEnds();
  const blocks = text.split(/\r?\n\r?\n/);
  blocks.pop(); // the last piece may be an event cut by the chunk's end
  for (const block of blocks) {
    const event = parseEventBlock(block);
    if (event === null) continue;
    if (ends.see(event) !== "error") {
      if ((check.codec.outputTextOfEvent?.(event) ?? "") !== "") return null;
      continue;
    }
    const error = errorOf(event.data);
    if (error === null || !TRANSIENT.test(error.kind)) return null;
    const status = statusOf(error.kind);
    return new AttemptFailed(
      "error_event",
      200,
      check.codec.decodeError(status, error.body, check.headers),
    );
  }
  return null;
}
