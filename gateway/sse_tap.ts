/**
 * The passthrough tap: upstream SSE bytes go to the client unchanged, while complete events are
 * shown to an observer (usage, the stream's terminal event). Only complete events are forwarded:
 * an event the upstream cut off halfway is never half-sent, so when the stream breaks the
 * client's parser sees whole events and then the terminal error `finish` supplies. With a
 * filter, events the filter rejects are cut out and every other event's text is forwarded
 * exactly as it came.
 *
 * It is a step (`core/step.ts`), not a stream: the passthrough runs it inside its one body
 * stream, since every extra stream stage costs more than the tapping itself.
 * @module
 */
import { concatBytes } from "../core/bytes.ts";
import type { Step } from "../core/step.ts";
import { parseEventBlock, type SseEvent } from "../sse/parse_sse.ts";
import type { BodyChunk } from "./metered_body.ts";

/** What the tap does with events. */
export interface TapOptions {
  /** Sees complete events: every one, or with `interesting`, those it matches. Returns true
   * for the event that ends the stream. */
  observe: (event: SseEvent) => unknown;
  /** Returns false for events the client must not get. */
  keep?: (event: SseEvent) => boolean;
  /** Matches the text of every event `observe` needs and of every event `keep` may reject:
   * the complete events of a chunk with no match are passed on without being split or parsed.
   * A non-global pattern. */
  interesting?: RegExp;
  /** Called once at the end, after the last complete event was observed, with the text of the
   * last upstream chunk: null when the stream reached its terminal event, else the text that
   * ends it for the client (the wire's terminal error). */
  finish?: (tail: string) => string | null;
}

const BOUNDARY = /\r\n\r\n|\n\n|\r\r/g;
const LF = 0x0a;
const CR = 0x0d;

/** Where the text after the last complete event starts; 0 when no event is complete. */
function afterLastEvent(text: string): number {
  const after = (separator: string) => {
    const index = text.lastIndexOf(separator);
    return index === -1 ? 0 : index + separator.length;
  };
  return Math.max(after("\n\n"), after("\r\r"), after("\r\n\r\n"));
}

/** The same for bytes. Upstreams flush whole events, so the scan usually stops at once. */
function afterLastEventBytes(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i > 0; i--) {
    const byte = bytes[i];
    if (byte === LF && bytes[i - 1] === LF) return i + 1;
    if (byte === CR && bytes[i - 1] === CR) return i + 1;
    if (
      byte === LF && i >= 3 && bytes[i - 1] === CR && bytes[i - 2] === LF && bytes[i - 3] === CR
    ) {
      return i + 1;
    }
  }
  return 0;
}

/** The tap for one stream, as a step: each upstream chunk in, its complete events out. */
export function sseTapStep(options: TapOptions): Step<Uint8Array, BodyChunk> {
  const decoder = new TextDecoder();
  let pending = "";
  /** Bytes of an unfinished event, held back (forwarding without a filter). */
  let held: Uint8Array | null = null;
  let tail = "";

  const visit = (block: string): boolean => {
    const event = parseEventBlock(block);
    if (event === null) return true;
    options.observe(event);
    return options.keep ? options.keep(event) : true;
  };

  const forwardWhole = (chunk: Uint8Array, out: { enqueue(chunk: BodyChunk): void }) => {
    const bytes = held === null ? chunk : concatBytes([held, chunk]);
    const end = afterLastEventBytes(bytes);
    held = end === bytes.length ? null : bytes.subarray(end);
    if (end > 0) out.enqueue(end === bytes.length ? bytes : bytes.subarray(0, end));
  };

  return {
    transform(chunk, out) {
      if (!options.keep) forwardWhole(chunk, out);
      const text = pending + decoder.decode(chunk, { stream: true });
      tail = text;
      if (options.interesting && !options.interesting.test(text)) {
        // No event here is of interest: pass the complete ones on whole, keep the unfinished one.
        const end = afterLastEvent(text);
        if (options.keep && end > 0) out.enqueue(text.slice(0, end));
        pending = text.slice(end);
        return;
      }
      let start = 0;
      let kept = "";
      BOUNDARY.lastIndex = 0;
      for (let match = BOUNDARY.exec(text); match !== null; match = BOUNDARY.exec(text)) {
        const end = match.index + match[0].length;
        const block = text.slice(start, end);
        // Under load one read brings many events; only those the pattern names are parsed.
        const seen = !options.interesting || options.interesting.test(block);
        if ((!seen || visit(block)) && options.keep) kept += block;
        start = end;
      }
      pending = text.slice(start);
      if (kept) out.enqueue(kept);
    },
    flush(out) {
      const rest = pending + decoder.decode();
      pending = "";
      held = null;
      // A last event with no blank line after it is forwarded only when it is the stream's own
      // terminal event (a server that leaves out the final blank line); an event the upstream cut
      // off halfway is never sent.
      // (Without `finish` nothing watches the ending: the last event is forwarded as it is.)
      let forward = false;
      const event = rest.trim().length > 0 ? parseEventBlock(rest) : null;
      if (event !== null && (options.observe(event) === true || !options.finish)) {
        forward = options.keep ? options.keep(event) : true;
      }
      const ending = options.finish?.(tail || rest) ?? null;
      if (ending === null) {
        if (forward) out.enqueue(`${rest}\n\n`);
      } else {
        out.enqueue(ending);
      }
    },
  };
}
