/**
 * Shared rig for the translation end-to-end tests: a gateway whose Anthropic and OpenAI providers
 * point at a fake upstream, the official SDKs pointed at that gateway, raw SSE and warning-header
 * readers, and a small scriptable fake for answers no recording holds (errors mid-stream, echoed
 * names).
 * @module
 */
import { type FakeServer, type RecordedRequest, startFakeServer } from "../fakes/fake_server.ts";
import { parseSse, type SseEvent } from "../../sse/parse_sse.ts";

export { type Rig, startRig } from "../rig.ts";

/** The last request a fake received (fails loudly when there was none). */
export function lastRequest(fake: { requests: RecordedRequest[] }): RecordedRequest {
  const last = fake.requests.at(-1);
  if (last === undefined) throw new Error("the fake upstream received no request");
  return last;
}

/** Every SSE event of a response body, in order. */
export async function readEvents(response: Response): Promise<SseEvent[]> {
  if (response.body === null) throw new Error("the response has no body");
  const events: SseEvent[] = [];
  const reader = response.body.pipeThrough(parseSse()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    events.push(value);
  }
}

/** The parsed `x-gatehouse-warnings` header (throws when it is missing or not a JSON list). */
export function warningsOf(response: Response): Array<{ field: string; message: string }> {
  const raw = response.headers.get("x-gatehouse-warnings");
  if (raw === null) throw new Error("the response has no x-gatehouse-warnings header");
  const parsed: unknown = JSON.parse(raw);
  if (!Array.isArray(parsed)) throw new Error(`x-gatehouse-warnings is not a list: ${raw}`);
  return parsed;
}

/** A fake provider that answers every POST with whatever `answer` returns for the request. */
export interface ScriptedUpstream extends FakeServer {
  answer(handler: (request: RecordedRequest) => Response): void;
}

/** Starts a {@linkcode ScriptedUpstream} (it answers 500 until `answer` is called). */
export function startScriptedUpstream(): ScriptedUpstream {
  let handler: ((request: RecordedRequest) => Response) | undefined;
  const server = startFakeServer("scripted upstream", (request) => {
    if (handler === undefined) {
      return Response.json({ error: { message: "scripted upstream: no answer set" } }, {
        status: 500,
      });
    }
    return handler(request);
  });
  return {
    url: server.url,
    requests: server.requests,
    get aborted() {
      return server.aborted;
    },
    close: () => server.close(),
    answer(next) {
      handler = next;
    },
  };
}

/** An SSE answer made of `events`: `[name, payload]` pairs are `event:`+`data:` events, plain
 * payloads are data-only events (strings are sent as is, anything else as JSON). */
export function sseAnswer(events: Array<unknown | [string, unknown]>): Response {
  const text = events.map((event) => {
    if (Array.isArray(event) && event.length === 2 && typeof event[0] === "string") {
      const data = typeof event[1] === "string" ? event[1] : JSON.stringify(event[1]);
      return `event: ${event[0]}\ndata: ${data}\n\n`;
    }
    return `data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`;
  }).join("");
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}
