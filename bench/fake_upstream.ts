/**
 * The benchmark's fake provider: answers `POST /v1/chat/completions`, `/v1/messages` and
 * `/v1/responses`, streamed or not, at once (no artificial delay). Stream events are written one
 * chunk each, as a provider writes tokens. Prints `{"port":N}` on stdout when it listens.
 *
 *   deno run -A bench/fake_upstream.ts
 * @module
 */
import { announce, exitWithParent } from "./child.ts";
import {
  chatBody,
  chatStream,
  messagesBody,
  messagesStream,
  responsesBody,
  responsesStream,
} from "./fake_payloads.ts";
import { Pacer } from "./streams/pacer.ts";

const encoder = new TextEncoder();

/** One route's answers for a model, encoded once and reused. */
interface Answers {
  stream: Uint8Array<ArrayBuffer>[];
  body: Uint8Array<ArrayBuffer>;
}

type Route = "chat" | "chat_usage" | "messages" | "responses";

const ROUTES: Record<string, Route> = {
  "/v1/chat/completions": "chat",
  "/v1/messages": "messages",
  "/v1/responses": "responses",
};

const cache = new Map<string, Answers>();

function answers(route: Route, model: string): Answers {
  const cacheKey = `${route} ${model}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const build = (events: string[], body: string): Answers => ({
    stream: events.map((event) => encoder.encode(event)),
    body: encoder.encode(body),
  });
  const made = route === "chat"
    ? build(chatStream(model, false), chatBody(model))
    : route === "chat_usage"
    ? build(chatStream(model, true), chatBody(model))
    : route === "messages"
    ? build(messagesStream(model), messagesBody(model))
    : build(responsesStream(model), responsesBody(model));
  cache.set(cacheKey, made);
  return made;
}

/** A body that hands the events over one read at a time. */
function eventStream(events: Uint8Array<ArrayBuffer>[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = events[index++];
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  }, { highWaterMark: 0 });
}

/** The model prefix of a paced chat stream (the streams bench): `bench-paced-<count>x<ms>`
 * answers with `count` content chunks, one every `ms`, between its role chunk and its ending. */
const PACED = /^bench-paced-(\d{1,4})x(\d{1,5})/;

/** The one clock of every paced stream. */
const pacer = new Pacer();

/** A paced chat stream: the chat answer's first event at once, then `count` content events one
 * every `intervalMs` (from when the last one went), then its ending events; stops early when the
 * reader cancels. */
function pacedStream(events: Uint8Array<ArrayBuffer>[], count: number, intervalMs: number) {
  const content = events[1]!;
  const ending = events.slice(events.length - (events.length > 3 ? 3 : 2));
  let sent = 0;
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(events[0]!);
      const tick = () => {
        if (cancelled) return;
        if (sent++ < count) {
          controller.enqueue(content);
          pacer.at(performance.now() + intervalMs, tick);
          return;
        }
        for (const event of ending) controller.enqueue(event);
        controller.close();
      };
      pacer.at(performance.now() + intervalMs, tick);
    },
    cancel() {
      cancelled = true;
    },
  });
}

function errorBody(status: number, message: string): Response {
  return Response.json({ error: { message, type: "invalid_request_error" } }, { status });
}

async function handle(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  const route = ROUTES[path];
  if (request.method !== "POST" || route === undefined) {
    return errorBody(404, `fake upstream: no route ${request.method} ${path}`);
  }
  let body: Record<string, unknown>;
  try {
    body = await request.json();
  } catch {
    return errorBody(400, "fake upstream: the body is not JSON");
  }
  const model = typeof body.model === "string" ? body.model : "unknown-model";
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  const withUsage = route === "chat" && options?.include_usage === true;
  const answer = answers(withUsage ? "chat_usage" : route, model);
  const headers = { "x-request-id": "req_bench_0001" };
  const paced = route !== "messages" && route !== "responses" ? PACED.exec(model) : null;
  if (body.stream === true && paced !== null) {
    return new Response(pacedStream(answer.stream, Number(paced[1]), Number(paced[2])), {
      headers: { ...headers, "content-type": "text/event-stream; charset=utf-8" },
    });
  }
  if (body.stream === true) {
    return new Response(eventStream(answer.stream), {
      headers: { ...headers, "content-type": "text/event-stream; charset=utf-8" },
    });
  }
  return new Response(answer.body, {
    headers: { ...headers, "content-type": "application/json" },
  });
}

if (import.meta.main) {
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => announce({ port }),
  }, handle);
  await exitWithParent(() => server.shutdown());
}
