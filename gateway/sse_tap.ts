/**
 * The passthrough tap: upstream SSE bytes go to the client unchanged, while complete events are
 * shown to an observer (usage, the stream's terminal event). Only complete events are forwarded:
 * an event the upstream cut off halfway is never half-sent, so when the stream breaks the
 * client's parser sees whole events and then the terminal error `finish` supplies. With a
 * filter, events the filter rejects are cut out and every other event's text is forwarded
 * exactly as it came. With a meter (a budget), each read's complete events are metered before
 * they go on, and a cut ends the stream right after the event that reached the budget.
 *
 * It is a step (`core/step.ts`), not a stream: the passthrough runs it inside its one body
 * stream, since every extra stream stage costs more than the tapping itself.
 * @module
 */
import { concatBytes } from "../core/bytes.ts";
import type { Sink, Step } from "../core/step.ts";
import type { TextTest } from "../protocols/codec.ts";
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
   * A non-global pattern, or a test built of several. */
  interesting?: TextTest;
  /** Called once at the end, after the last complete event was observed, with the text of the
   * last run of complete events forwarded that carried data: null when the stream reached its
   * terminal event, else the text that ends it for the client (the wire's terminal error). */
  finish?: (lastEvents: string) => string | null;
  /** Meters the output of complete events on their way (a budget): given the text of one or
   * more of them, returns the offset just past the event after which nothing may be forwarded
   * (the one that reached the budget), or -1. A run `interesting` does not match is metered
   * whole, without being split or parsed; the events of any other run one by one, each before
   * it is observed. After a cut the tap forwards nothing more (`finish` supplies the end). */
  meter?: (events: string) => number;
}

const BOUNDARY = /\r\n\r\n|\n\n|\r\r/g;
const LF = 0x0a;
const CR = 0x0d;

/** Where the bytes after the last complete event start; 0 when no event is complete.
 * Upstreams flush whole events, so the backward scan usually stops at once. */
function afterLastEvent(bytes: Uint8Array): number {
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

const NO_BYTES = new Uint8Array(0);

/** Decodes complete runs of events (whole UTF-8 characters: no state between calls), for every
 * stream. */
const utf8 = new TextDecoder();

/** The tap for one stream, as a step: each upstream chunk in, its complete events out. The
 * unfinished event is held as bytes and only each new chunk (with the three bytes before it) is
 * scanned for a boundary; a completed run of events is decoded and tested once. So every byte is
 * handled a bounded number of times, and an event arriving in many chunks (a Responses event
 * carrying a whole image) costs time in proportion to its size. A run ends at an event boundary,
 * an ASCII byte, so it never splits a UTF-8 character. */
export function sseTapStep(options: TapOptions): Step<Uint8Array, BodyChunk> {
  /** The unfinished event's bytes, and their last three (a boundary may straddle chunks). */
  let held: Uint8Array[] = [];
  let heldTail: Uint8Array = NO_BYTES;
  let lastEvents = "";

  const visit = (block: string): boolean => {
    const event = parseEventBlock(block);
    if (event === null) return true;
    options.observe(event);
    return options.keep ? options.keep(event) : true;
  };

  /** The complete events `chunk` finishes, as bytes (null when it finishes none); the rest is
   * held for the next chunk. */
  const completed = (chunk: Uint8Array): Uint8Array | null => {
    const seam = heldTail.length === 0 ? chunk : concatBytes([heldTail, chunk]);
    const end = afterLastEvent(seam);
    if (end === 0) {
      held.push(chunk);
      heldTail = seam.subarray(Math.max(0, seam.length - 3));
      return null;
    }
    const cut = end - heldTail.length;
    const head = cut === chunk.length ? chunk : chunk.subarray(0, cut);
    const run = held.length === 0 ? head : concatBytes([...held, head]);
    // Upstreams flush whole events: usually nothing is left to hold, and nothing is allocated.
    if (cut === chunk.length) {
      held.length = 0;
      heldTail = NO_BYTES;
    } else {
      held = [chunk.subarray(cut)];
      heldTail = chunk.subarray(Math.max(cut, chunk.length - 3));
    }
    return run;
  };

  /** After a cut, nothing more is forwarded: the stream ends with what `finish` supplies. */
  let stopped = false;
  const stop = (sent: string, out: Sink<BodyChunk>) => {
    stopped = true;
    if (sent.includes("data:")) lastEvents = sent;
    if (sent) out.enqueue(sent);
  };

  return {
    transform(chunk, out) {
      if (stopped) return;
      const run = completed(chunk);
      if (run === null) return;
      const text = utf8.decode(run);
      const meter = options.meter;
      if (options.interesting && !options.interesting.test(text)) {
        // No event here is of interest: the bytes go on as they came (up to a cut).
        const cut = meter ? meter(text) : -1;
        if (cut !== -1) return stop(text.slice(0, cut), out);
        if (text.includes("data:")) lastEvents = text;
        out.enqueue(run);
        return;
      }
      const filtered = options.keep !== undefined || meter !== undefined;
      if (!filtered) {
        if (text.includes("data:")) lastEvents = text;
        out.enqueue(run);
      }
      let start = 0;
      let kept = "";
      let whole = true;
      BOUNDARY.lastIndex = 0;
      for (let match = BOUNDARY.exec(text); match !== null; match = BOUNDARY.exec(text)) {
        const end = match.index + match[0].length;
        const block = text.slice(start, end);
        start = end;
        const cut = meter !== undefined && meter(block) !== -1;
        // Under load one read brings many events; only those the pattern names are parsed.
        const seen = !options.interesting || options.interesting.test(block);
        if (!seen || visit(block)) kept += filtered ? block : "";
        else whole = false;
        if (cut) {
          BOUNDARY.lastIndex = 0;
          return stop(kept, out);
        }
      }
      if (!filtered) return;
      if (kept.includes("data:")) lastEvents = kept;
      // Nothing cut out: the bytes go on as they came.
      if (whole) out.enqueue(run);
      else if (kept) out.enqueue(kept);
    },
    flush(out) {
      const rest = held.length === 0 ? "" : utf8.decode(concatBytes(held));
      held = [];
      // A last event with no blank line after it is forwarded only when it is the stream's own
      // terminal event (a server that leaves out the final blank line); an event the upstream cut
      // off halfway is never sent.
      // (Without `finish` nothing watches the ending: the last event is forwarded as it is.)
      let forward = false;
      const event = stopped || rest.trim().length === 0 ? null : parseEventBlock(rest);
      if (event !== null && (options.observe(event) === true || !options.finish)) {
        forward = options.keep ? options.keep(event) : true;
        // It reached the client: metered (after the stream ended: counted, not asked about).
        if (forward) options.meter?.(rest);
      }
      const ending = options.finish?.(lastEvents) ?? null;
      if (ending === null) {
        if (forward) out.enqueue(`${rest}\n\n`);
      } else {
        out.enqueue(ending);
      }
    },
  };
}
