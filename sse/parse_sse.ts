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

/** Parses one event block (the text between blank lines). Null when it has no data. */
export function parseEventBlock(block: string): SseEvent | null {
  let event: string | undefined;
  const data: string[] = [];
  for (const text of block.split(/\r\n|\r|\n/)) {
    if (text === "" || text.startsWith(":")) continue;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
  }
  if (data.length === 0) return null;
  return event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") };
}

/** Bytes in, events out. Handles `\n`, `\r\n` and `\r` line ends, multi-line data, comments,
 * and events split across chunks at any byte. */
export function parseSseStep(): Step<Uint8Array, SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event: string | undefined;
  let data: string[] = [];

  const line = (text: string, out: Sink<SseEvent>) => {
    if (text === "") {
      if (data.length > 0) {
        out.enqueue(
          event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") },
        );
      }
      event = undefined;
      data = [];
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
  };

  const drain = (out: Sink<SseEvent>) => {
    let start = 0;
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
