/**
 * Server-sent events parsing as a `TransformStream`, with state per stream in the closure.
 * @module
 */
import { type Sink, type Step, stepStream } from "../core/step.ts";

/** One server-sent event. `event` is absent when the stream sent only `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/** Feeds the lines of a stream one at a time; returns the event a blank line completes. */
function eventBuilder(): (line: string) => SseEvent | null {
  let event: string | undefined;
  let data: string[] = [];
  return (text) => {
    if (text === "") {
      const done = data.length === 0
        ? null
        : event === undefined
        ? { data: data.join("\n") }
        : { event, data: data.join("\n") };
      event = undefined;
      data = [];
      return done;
    }
    if (text.startsWith(":")) return null;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    return null;
  };
}

/** Parses one event block (the text between blank lines). Null when it has no data. */
export function parseEventBlock(block: string): SseEvent | null {
  const feed = eventBuilder();
  for (const text of block.split(/\r\n|\r|\n/)) {
    const event = feed(text);
    if (event) return event;
  }
  return feed("");
}

/** Bytes in, events out. Handles `\n`, `\r\n` and `\r` line ends, multi-line data, comments,
 * and events split across chunks at any byte. */
export function parseSseStep(): Step<Uint8Array, SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  const feed = eventBuilder();
  const line = (text: string, out: Sink<SseEvent>) => {
    const event = feed(text);
    if (event) out.enqueue(event);
  };

  const drain = (out: Sink<SseEvent>) => {
    let start = 0;
    // Providers end lines with \n: then indexOf finds them far faster than a character loop.
    if (buffer.indexOf("\r") === -1) {
      for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n", start)) {
        line(buffer.slice(start, end), out);
        start = end + 1;
      }
      buffer = buffer.slice(start);
      return;
    }
    for (let i = 0; i < buffer.length; i++) {
      const ch = buffer.charCodeAt(i);
      if (ch !== 10 && ch !== 13) continue;
      // A lone trailing \r may be the first half of \r\n: wait for the next chunk.
      if (ch === 13 && i === buffer.length - 1) break;
      line(buffer.slice(start, i), out);
      if (ch === 13 && buffer.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    buffer = buffer.slice(start);
  };

  return {
    transform(chunk, out) {
      buffer += decoder.decode(chunk, { stream: true });
      drain(out);
    },
    flush(out) {
      buffer += decoder.decode();
      if (buffer.length > 0) buffer += "\n";
      drain(out);
      line("", out);
    },
  };
}

/** The step as a `TransformStream`. */
export function parseSse(): TransformStream<Uint8Array, SseEvent> {
  return stepStream(parseSseStep());
}
