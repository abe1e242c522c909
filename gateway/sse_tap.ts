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
}

const BOUNDARY = /\r\n\r\n|\n\n|\r\r/g;
const LF = 0x0a;
const CR = 0x0d;

/** Where the text after the last complete event starts; 0 when no event is complete. */
function afterLastEvent(text: string): number {
  // One backward scan that stops at the last boundary: upstreams flush whole events, so it
  // usually stops at once (three lastIndexOf calls scanned a whole chunk for the separators a
  // stream does not use).
  for (let i = text.length - 1; i > 0; i--) {
    const code = text.charCodeAt(i);
    if (code === LF) {
      const before = text.charCodeAt(i - 1);
      if (before === LF) return i + 1;
      if (
        before === CR && i >= 3 && text.charCodeAt(i - 2) === LF && text.charCodeAt(i - 3) === CR
      ) {
        return i + 1;
      }
    } else if (code === CR && text.charCodeAt(i - 1) === CR) {
      return i + 1;
    }
  }
  return 0;
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

/** How far back a match of `interesting` or an event boundary may start in the text already
 * held: enough for the patterns' few dozen characters (and a boundary's four). */
const SEAM = 64;
const NO_BYTES = new Uint8Array(0);

/** The tap for one stream, as a step: each upstream chunk in, its complete events out. Every
 * byte is scanned a bounded number of times, so an event arriving in many chunks (a Responses
 * event carrying a whole image) costs time in proportion to its size. */
export function sseTapStep(options: TapOptions): Step<Uint8Array, BodyChunk> {
  const decoder = new TextDecoder();
  /** The unfinished event's text, in pieces, and its last characters. */
  let pieces: string[] = [];
  let pendingTail = "";
  /** Whether `interesting` matched the unfinished event's text so far. */
  let pendingMatched = false;
  /** The unfinished event's bytes (forwarding without a filter), and their last bytes. */
  let held: Uint8Array[] = [];
  let heldTail: Uint8Array = NO_BYTES;
  let lastEvents = "";

  const visit = (block: string): boolean => {
    const event = parseEventBlock(block);
    if (event === null) return true;
    options.observe(event);
    return options.keep ? options.keep(event) : true;
  };

  const forwardWhole = (chunk: Uint8Array, out: { enqueue(chunk: BodyChunk): void }) => {
    const seam = heldTail.length === 0 ? chunk : concatBytes([heldTail, chunk]);
    const end = afterLastEventBytes(seam);
    if (end === 0) {
      held.push(chunk);
      heldTail = seam.subarray(Math.max(0, seam.length - 3));
      return;
    }
    const cut = end - heldTail.length;
    const head = cut === chunk.length ? chunk : chunk.subarray(0, cut);
    out.enqueue(held.length === 0 ? head : concatBytes([...held, head]));
    // Upstreams flush whole events: usually nothing is left to hold, and nothing is allocated.
    if (cut === chunk.length) {
      held.length = 0;
      heldTail = NO_BYTES;
    } else {
      held = [chunk.subarray(cut)];
      heldTail = chunk.subarray(Math.max(cut, chunk.length - 3));
    }
  };

  return {
    transform(chunk, out) {
      if (!options.keep) forwardWhole(chunk, out);
      const piece = decoder.decode(chunk, { stream: true });
      const local = pendingTail + piece;
      if (options.interesting && !pendingMatched) pendingMatched = options.interesting.test(local);
      const end = afterLastEvent(local);
      if (end === 0) {
        pieces.push(piece);
        pendingTail = local.slice(-SEAM);
        return;
      }
      // The completed run: the unfinished event's pieces and this piece up to its last boundary.
      const cut = end - pendingTail.length;
      pieces.push(piece.slice(0, cut));
      const text = pieces.join("");
      const rest = piece.slice(cut);
      pieces.length = 0;
      if (rest.length > 0) pieces.push(rest);
      pendingTail = rest.slice(-SEAM);
      const matched = pendingMatched;
      pendingMatched = options.interesting ? options.interesting.test(rest) : false;
      if (text.includes("data:")) lastEvents = text;
      if (options.interesting && !matched) {
        // No event here is of interest: pass them on whole.
        if (options.keep) out.enqueue(text);
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
      if (kept) out.enqueue(kept);
    },
    flush(out) {
      const rest = pieces.join("") + decoder.decode();
      pieces = [];
      held = [];
      // A last event with no blank line after it is forwarded only when it is the stream's own
      // terminal event (a server that leaves out the final blank line); an event the upstream cut
      // off halfway is never sent.
      // (Without `finish` nothing watches the ending: the last event is forwarded as it is.)
      let forward = false;
      const event = rest.trim().length > 0 ? parseEventBlock(rest) : null;
      if (event !== null && (options.observe(event) === true || !options.finish)) {
        forward = options.keep ? options.keep(event) : true;
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
