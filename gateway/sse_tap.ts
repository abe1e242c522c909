/**
 * The passthrough tap: upstream SSE bytes go to the client unchanged, while each complete event
 * is shown to an observer (to read usage). With a filter, events the filter rejects are cut out
 * by byte range; the bytes of every other event are forwarded as they came, never re-encoded.
 * @module
 */
import { parseEventBlock, type SseEvent } from "../sse/parse_sse.ts";

/** What the tap does with events. */
export interface TapOptions {
  /** Sees every complete event. */
  observe: (event: SseEvent) => void;
  /** Returns false for events the client must not get. Without it, chunks are forwarded the
   * moment they arrive, before their events complete. */
  keep?: (event: SseEvent) => boolean;
}

/** Finds the end of the next event block in `bytes` from `from`: the index after the blank line,
 * or -1. Recognises LF LF and CR LF CR LF. */
function blockEnd(bytes: Uint8Array, from: number): number {
  for (let i = from; i < bytes.length - 1; i++) {
    if (bytes[i] !== 10) continue;
    if (bytes[i + 1] === 10) return i + 2;
    if (bytes[i + 1] === 13 && bytes[i + 2] === 10) return i + 3;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** A transform that forwards SSE bytes and taps their events. */
export function sseTap(options: TapOptions): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let pending: Uint8Array = new Uint8Array(0);

  const visit = (block: Uint8Array): boolean => {
    const event = parseEventBlock(decoder.decode(block));
    if (event === null) return true;
    options.observe(event);
    return options.keep ? options.keep(event) : true;
  };

  return new TransformStream({
    transform(chunk, out) {
      if (!options.keep) out.enqueue(chunk);
      const bytes = concat(pending, chunk);
      let start = 0;
      let keptFrom = 0;
      for (let end = blockEnd(bytes, 0); end !== -1; end = blockEnd(bytes, start)) {
        const kept = visit(bytes.subarray(start, end));
        if (options.keep && !kept) {
          if (start > keptFrom) out.enqueue(bytes.slice(keptFrom, start));
          keptFrom = end;
        }
        start = end;
      }
      if (options.keep && start > keptFrom) out.enqueue(bytes.slice(keptFrom, start));
      pending = bytes.slice(start);
    },
    flush(out) {
      if (pending.length === 0) return;
      const kept = visit(pending);
      if (options.keep && kept) out.enqueue(pending);
    },
  });
}
