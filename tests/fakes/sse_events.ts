/**
 * A plain SSE text parser for assertions on raw streams (`event:` / `data:` fields, events split
 * on blank lines, multi-line data joined with `\n`, comments ignored).
 * @module
 */

/** One parsed server-sent event. */
export interface SseEvent {
  /** The `event:` field, when present. */
  event?: string;
  /** The `data:` field(s). */
  data: string;
}

/** Parses a whole SSE text (LF or CRLF line ends). */
export function parseSseText(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.replace(/\r\n?/g, "\n").split("\n\n")) {
    if (block.trim() === "") continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const name = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (name === "event") event = value;
      else if (name === "data") data.push(value);
    }
    events.push(event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") });
  }
  return events;
}
