/**
 * The passthrough tap: upstream SSE bytes go to the client unchanged, while complete events are
 * shown to an observer (to read usage). With a filter, events the filter rejects are cut out
 * and every other event's text is forwarded exactly as it came.
 *
 * It is a step (`core/step.ts`), not a stream: the passthrough runs it inside its one body
 * stream, since every extra stream stage costs more than the tapping itself.
 * @module
 */
import type { Step } from "../core/step.ts";
import { parseEventBlock, type SseEvent } from "../sse/parse_sse.ts";
import type { BodyChunk } from "./metered_body.ts";

/** What the tap does with events. */
export interface TapOptions {
  /** Sees complete events: every one, or with `interesting`, those it matches. */
  observe: (event: SseEvent) => void;
  /** Returns false for events the client must not get. Without it, chunks are forwarded the
   * moment they arrive, before their events complete. */
  keep?: (event: SseEvent) => boolean;
  /** Matches the text of every event `observe` needs and of every event `keep` may reject
   * (a usage object): the complete events of a chunk with no match are passed on without being
   * split or parsed. A non-global pattern. */
  interesting?: RegExp;
}

const BOUNDARY = /\r\n\r\n|\n\n|\r\r/g;

/** Where the text after the last complete event starts; 0 when no event is complete. */
function afterLastEvent(text: string): number {
  const after = (separator: string) => {
    const index = text.lastIndexOf(separator);
    return index === -1 ? 0 : index + separator.length;
  };
  return Math.max(after("\n\n"), after("\r\r"), after("\r\n\r\n"));
}

/** The tap for one stream, as a step: each upstream chunk in, what the client gets out; at
 * the end, a final event that had no blank line after it. */
export function sseTapStep(options: TapOptions): Step<Uint8Array, BodyChunk> {
  const decoder = new TextDecoder();
  let pending = "";

  const visit = (block: string): boolean => {
    const event = parseEventBlock(block);
    if (event === null) return true;
    options.observe(event);
    return options.keep ? options.keep(event) : true;
  };

  return {
    transform(chunk, out) {
      if (!options.keep) out.enqueue(chunk);
      const text = pending + decoder.decode(chunk, { stream: true });
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
        if (visit(block) && options.keep) kept += block;
        start = end;
      }
      pending = text.slice(start);
      if (kept) out.enqueue(kept);
    },
    flush(out) {
      const rest = pending + decoder.decode();
      pending = "";
      if (rest.length > 0 && visit(rest) && options.keep) out.enqueue(rest);
    },
  };
}
