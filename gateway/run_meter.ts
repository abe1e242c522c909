/**
 * The passthrough's budget metering of raw events: each upstream read's complete events are
 * scanned for their output text by their wire's `outputTextOfRun` (`protocols/output_scan.ts`:
 * no parse of whole events), and metered as one run (`Meter.deliveredRun`). A run the scanner gives up on is
 * parsed event by event instead, with the wire's `outputTextOfEvent`.
 * @module
 */
import type { ForwardCodec } from "../protocols/codec.ts";
import { addText, eventEndAfter, type RunText, runText } from "../protocols/output_scan.ts";
import { parseEventBlock, type SseEvent } from "../sse/parse_sse.ts";
import type { Meter } from "./meter.ts";

const BOUNDARY = /\r\n\r\n|\n\n|\r\r/g;

/** Appends the output text of each event of `run` (parsed, read by `textOf`) to `into`, ending
 * at the event's first offset. The last event may lack its blank line. */
function parseEach(run: string, textOf: (event: SseEvent) => string, into: RunText): void {
  let start = 0;
  BOUNDARY.lastIndex = 0;
  while (start < run.length) {
    const match = BOUNDARY.exec(run);
    const end = match === null ? run.length : match.index + match[0].length;
    const event = parseEventBlock(run.slice(start, end));
    const text = event === null ? "" : textOf(event);
    if (text !== "") addText(into, text, start);
    start = end;
  }
}

/** The sse tap's `meter` for a stream of `codec`'s wire: meters the output text of a run of
 * complete events with `meter`; the offset just past the event that reached the budget (the
 * rest of that event's text is told to `meter` as delivered: it reaches the client), or -1. */
export function runMeter(codec: ForwardCodec, meter: Meter): (events: string) => number {
  const scan = codec.outputTextOfRun;
  const textOf = codec.outputTextOfEvent ?? (() => "");
  const found = runText();
  return (events) => {
    found.count = 0;
    if (scan === undefined || !scan(events, found)) {
      found.count = 0;
      parseEach(events, textOf, found);
    }
    const reached = meter.deliveredRun(found);
    if (reached === -1) return -1;
    const end = eventEndAfter(events, found.ends[reached]!);
    for (let i = reached + 1; i < found.count && found.ends[i]! < end; i++) {
      meter.delivered(found.texts[i]!);
    }
    return end;
  };
}
