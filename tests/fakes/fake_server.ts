/**
 * The HTTP shell both fakes share: `Deno.serve` on 127.0.0.1, port 0, recording every request
 * and counting the ones whose client went away before the answer was finished.
 * @module
 */

/** One request as the fake received it. */
export interface RecordedRequest {
  method: string;
  /** URL path, e.g. `/v1/messages`. */
  path: string;
  /** Query string including `?`, or `""`. */
  search: string;
  /** Lower-cased header names (as `Headers` iterates them). */
  headers: Record<string, string>;
  /** Parsed JSON body; the raw text when it is not JSON; `undefined` when empty. */
  body: unknown;
  /** The body exactly as received. */
  rawBody: string;
}

/**
 * Answers one request. `signal` aborts when the client disconnects or the fake is closed;
 * streams must end when it fires.
 */
export type FakeHandler = (
  request: RecordedRequest,
  signal: AbortSignal,
) => Response | Promise<Response>;

/** A running fake. */
export interface FakeServer {
  /** `http://127.0.0.1:PORT`: the provider root (no `/v1`). */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Requests whose connection the client closed before the response body was complete. */
  readonly aborted: number;
  /** Ends hanging streams, then stops the server. */
  close(): Promise<void>;
}

function parseBody(raw: string): unknown {
  if (raw === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * Forwards `body` and reports a cancel from the connection side (the client went away before the
 * last byte). Deno cancels a response body when its connection closes, also while a read is
 * pending, so this sees aborts of hanging streams. (`request.signal` is not used: in Deno 2.9 it
 * also fires after every successful response and reading it prints a legacy-behaviour warning.)
 */
function watchBody(
  body: ReadableStream<Uint8Array>,
  onCancel: (reason: unknown) => void,
  onEnd: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          onEnd();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        onEnd();
        controller.error(error);
      }
    },
    async cancel(reason) {
      onCancel(reason);
      await reader.cancel(reason);
    },
  });
}

/** Starts a fake provider. `label` names it in error messages. */
export function startFakeServer(label: string, handler: FakeHandler): FakeServer {
  const requests: RecordedRequest[] = [];
  const closing = new AbortController();
  let aborted = 0;

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      const rawBody = await req.text();
      const recorded: RecordedRequest = {
        method: req.method,
        path: url.pathname,
        search: url.search,
        headers: Object.fromEntries(req.headers),
        body: parseBody(rawBody),
        rawBody,
      };
      requests.push(recorded);
      const local = new AbortController();
      const onClosing = () => local.abort(closing.signal.reason);
      closing.signal.addEventListener("abort", onClosing, { once: true });
      let response: Response;
      try {
        response = await handler(recorded, local.signal);
      } catch (error) {
        response = Response.json(
          { type: "error", error: { type: "api_error", message: `${label}: ${error}` } },
          { status: 500 },
        );
      }
      if (response.body === null) {
        closing.signal.removeEventListener("abort", onClosing);
        return response;
      }
      const body = watchBody(response.body, (reason) => {
        if (!closing.signal.aborted) aborted++;
        local.abort(reason);
      }, () => closing.signal.removeEventListener("abort", onClosing));
      return new Response(body, response);
    },
  );

  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    get aborted() {
      return aborted;
    },
    async close() {
      closing.abort(new Error(`${label} closed`));
      await server.shutdown();
    },
  };
}
