/**
 * A fake provider with fault modes, for driving every ending of a request: it answers like the
 * scripted upstream (`ok`), or fails in one way — an error status, a header wait that never
 * ends, a stream that stops cleanly or breaks its connection after two events, a stream that
 * sends the wire's error event, a stream that hangs after two events, an error status with a
 * body far over the gateway's error-body cap.
 * @module
 */
import { startFakeServer } from "../fakes/fake_server.ts";
import { startScriptedUpstream } from "../fakes/scripted_upstream.ts";

/** How the next requests are answered. */
export type Mode =
  | "ok"
  | "status_500"
  | "status_429"
  | "huge_error"
  | "hang_headers"
  | "close_early"
  | "reset"
  | "error_event"
  | "hang_stream";

/** A running fake with a mode. */
export interface ModeUpstream {
  url: string;
  mode: Mode;
  /** Requests whose connection the gateway closed before the answer was finished. */
  readonly aborted: number;
  close(): Promise<void>;
}

const encoder = new TextEncoder();

/** The size of the `huge_error` body's message. */
export const HUGE_ERROR_BYTES = 1 << 20;

/** The wire's own error event, by the path it was asked on. */
function errorEvent(path: string): string {
  if (path.endsWith("/messages")) {
    return 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error",' +
      '"message":"Overloaded"}}\n\n';
  }
  if (path.endsWith("/responses")) {
    return 'event: response.failed\ndata: {"type":"response.failed","sequence_number":2,' +
      '"response":{"id":"resp_up","object":"response","status":"failed","output":[],' +
      '"error":{"code":"server_error","message":"Overloaded"}}}\n\n';
  }
  return 'data: {"error":{"message":"Overloaded","type":"server_error","param":null,' +
    '"code":null}}\n\n';
}

function errorBody(path: string, status: number): Response {
  const body = path.endsWith("/messages")
    ? { type: "error", error: { type: "api_error", message: `Failure ${status}` } }
    : { error: { message: `Failure ${status}`, type: "server_error", param: null, code: null } };
  return Response.json(body, { status, headers: status === 429 ? { "retry-after": "7" } : {} });
}

/** The first two events of `body` (a real answer), then `then`. */
function firstEvents(
  body: ReadableStream<Uint8Array>,
  then: (controller: ReadableStreamDefaultController<Uint8Array>) => void,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let text = "";
      const decoder = new TextDecoder();
      for await (const chunk of body) {
        text += decoder.decode(chunk, { stream: true });
        const events = text.split("\n\n");
        if (events.length > 2) {
          controller.enqueue(encoder.encode(`${events.slice(0, 2).join("\n\n")}\n\n`));
          break;
        }
      }
      then(controller);
    },
  });
}

/** Starts the fake (and the scripted upstream it asks for real answers). */
export function startModeUpstream(): ModeUpstream {
  const scripted = startScriptedUpstream();
  const state = { mode: "ok" as Mode };
  const server = startFakeServer("mode upstream", async (request, signal) => {
    const mode = state.mode;
    if (mode === "status_500") return errorBody(request.path, 500);
    if (mode === "status_429") return errorBody(request.path, 429);
    if (mode === "huge_error") {
      const message = "x".repeat(HUGE_ERROR_BYTES);
      // A status that is not retried, so its body is forwarded as it came (up to the cap).
      return Response.json({ error: { message, type: "invalid_request_error" } }, { status: 400 });
    }
    if (mode === "hang_headers") {
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      return new Response(null, { status: 599 });
    }
    const real = await fetch(`${scripted.url}${request.path}${request.search}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: request.rawBody,
    });
    if (mode === "ok") return real;
    const stream = (request.body as { stream?: unknown }).stream === true;
    const headers = new Headers(real.headers);
    headers.delete("content-length");
    if (!stream) {
      // A JSON body cut short: half its bytes, then the connection breaks.
      const bytes = new Uint8Array(await real.arrayBuffer());
      const half = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, bytes.length >> 1));
          setTimeout(() => controller.error(new Error("connection reset")), 20);
        },
      });
      return new Response(half, { status: 200, headers });
    }
    const body = firstEvents(real.body!, (controller) => {
      if (mode === "close_early") controller.close();
      else if (mode === "reset") setTimeout(() => controller.error(new Error("reset")), 20);
      else if (mode === "error_event") {
        // Mid-stream: after the first events reached the client (an error event in the first
        // chunk is a failed attempt, retried).
        setTimeout(() => {
          controller.enqueue(encoder.encode(errorEvent(request.path)));
          controller.close();
        }, 30);
      } else signal.addEventListener("abort", () => controller.close(), { once: true });
    });
    return new Response(body, { status: 200, headers });
  });
  return {
    url: server.url,
    get mode() {
      return state.mode;
    },
    set mode(mode: Mode) {
      state.mode = mode;
    },
    get aborted() {
      return server.aborted;
    },
    async close() {
      await server.close();
      await scripted.close();
    },
  };
}
