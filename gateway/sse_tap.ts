/**
 * The passthrough tap: upstream SSE bytes go to the client unchanged, while each complete event
 * is shown to an observer (to read usage). With a filter, events the filter rejects are cut out
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
  /** Sees every complete event. */
  observe: (event: SseEvent) => void;
  /** Returns false for events the client must not get. Without it, chunks are forwarded the
   * moment they arrive, before their events complete. */
  keep?: (event: SseEvent) => boolean;
  /** Text every event of interest to `observe` contains (`"usage"`): without a filter, chunks
   * whose text lacks it are not split into events at all. */
  mustContain?: string;
}

const BOUNDARY = /\r\n\r\n|\n\n|\r\r/g;

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
      if (!options.keep && options.mustContain && !text.includes(options.mustContain)) {
        // Nothing here to observe: keep only the unfinished event for the next chunk.
        const last = Math.max(text.lastIndexOf("\n\n"), text.lastIndexOf("\r\r"));
        pending = last === -1 ? text : text.slice(last + 2);
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
