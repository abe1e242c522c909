/**
 * A fake provider that answers like the scripted upstream, but paces its streams: the events of
 * an answer go out `eventsPerChunk` to a network chunk (as a busy connection coalesces them), one
 * chunk every `delayMs`. A stream can also be held after a number of chunks until released, to
 * keep a request in flight as long as a test needs. It counts the streams whose connection the
 * gateway closed before the end.
 *
 * (The scripted upstream's own `splitBytes` cannot coalesce: a pull that enqueues nothing is not
 * pulled again, so a chunk size above one event stalls the stream.)
 * @module
 */
import { startFakeServer } from "../fakes/fake_server.ts";
import { startScriptedUpstream } from "../fakes/scripted_upstream.ts";

/** How streams are paced (changeable between requests). */
export interface Pace {
  /** Events per network chunk (default 1). */
  eventsPerChunk: number;
  /** Milliseconds before each chunk (default 4). */
  delayMs: number;
  /** Send this many chunks, then wait for {@link PacedUpstream.release} (default: never wait). */
  holdAfterChunks?: number;
}

/** A running paced upstream. */
export interface PacedUpstream {
  url: string;
  pace: Pace;
  /** Streams whose connection the gateway closed before their last byte. */
  readonly aborted: number;
  /** Streams started (an LLM request with `stream: true`). */
  readonly streams: number;
  /** Lets every stream started so far go on to its end (past its hold). */
  release(): void;
  /** Lets the oldest held stream not yet let go go on to its end. */
  releaseOne(): void;
  close(): Promise<void>;
}

const encoder = new TextEncoder();

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** Starts the paced upstream. */
export function startPacedUpstream(pace: Partial<Pace> = {}): PacedUpstream {
  const scripted = startScriptedUpstream();
  const state: Pace = { eventsPerChunk: 1, delayMs: 4, ...pace };
  let streams = 0;
  /** One gate per stream started, in order, until it is let go. */
  const gates: Array<() => void> = [];

  const server = startFakeServer("paced upstream", async (request, signal) => {
    const real = await fetch(`${scripted.url}${request.path}${request.search}`, {
      method: request.method,
      headers: { "content-type": "application/json" },
      body: request.method === "POST" ? request.rawBody : undefined,
    });
    const stream = (request.body as { stream?: unknown } | undefined)?.stream === true;
    if (!stream || real.status !== 200) return real;
    streams++;
    const events = (await real.text()).split(/(?<=\n\n)/);
    const { eventsPerChunk, delayMs, holdAfterChunks } = state;
    let open: () => void = () => {};
    const wait = new Promise<void>((resolve) => (open = resolve));
    if (holdAfterChunks !== undefined) gates.push(open);
    let next = 0;
    let chunks = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (holdAfterChunks !== undefined && chunks === holdAfterChunks) {
          await new Promise<void>((resolve) => {
            void wait.then(resolve);
            signal.addEventListener("abort", () => resolve(), { once: true });
          });
        }
        await sleep(delayMs, signal);
        if (signal.aborted || next >= events.length) return controller.close();
        const run = events.slice(next, next + eventsPerChunk).join("");
        next += eventsPerChunk;
        chunks++;
        controller.enqueue(encoder.encode(run));
      },
    });
    const headers = new Headers(real.headers);
    headers.delete("content-length");
    return new Response(body, { status: 200, headers });
  });

  return {
    url: server.url,
    pace: state,
    get aborted() {
      return server.aborted;
    },
    get streams() {
      return streams;
    },
    release() {
      for (const open of gates.splice(0)) open();
    },
    releaseOne() {
      gates.shift()?.();
    },
    async close() {
      for (const open of gates.splice(0)) open();
      await server.close();
      await scripted.close();
    },
  };
}
