/**
 * A fake provider with fault modes, for the reliability tests: a raw HTTP/1.1 server on loopback
 * (so it can break a connection wherever a real provider's can: before the headers, right after
 * them, mid-stream) that answers each request with the next fault of its queue, then with its
 * standing answer (`ok` unless told otherwise). Its `ok` answers are the scripted upstream's real
 * wire answers (`/v1/chat/completions`, `/v1/responses`, `/v1/messages`, streamed or not). Every
 * answer closes its connection, so the gateway never reuses one and each request meets its own
 * fault. Several instances model several deployments.

 * @module
 */
import { startScriptedUpstream } from "../fakes/scripted_upstream.ts";
import { headersOf } from "./request_head.ts";

/** How one request is answered. */
export type Fault =
  /** The scripted upstream's real answer. */
  | "ok"
  /** The connection is closed once the request is read: no status line. */
  | "reset"
  /** No headers, ever (until the gateway gives up and closes the connection). */
  | "hang"
  /** 200, then the wire's own error event first (Anthropic `overloaded_error`,
   * `response.failed`, chat `{"error":...}`). */
  | "error_event"
  /** 200 and the first two events of a real answer, then silence. */
  | "stall"
  /** 200 and the first two events of a real answer (half a JSON body), then the connection
   * breaks. */
  | "cut"
  /** 200 headers, then the connection breaks before any body byte. */
  | "cut_before_body"
  /** 200 headers, then silence before any body byte. */
  | "silent_body"
  /** A real streamed answer sent one event per 100 ms. */
  | "drip"
  /** 400 saying the request overflowed the context window, in the wire's own words. */
  | "overflow"
  /** An error status with the wire's own error body. */
  | { status: number; headers?: Record<string, string> }
  /** The real answer after `slowMs` without headers. */
  | { slowMs: number };

/** One request as the fake received it. */
export interface FaultRequest {
  path: string;
  /** The body's `model`. */
  model: string;
  stream: boolean;
  /** Unix ms of its arrival. */
  time: number;
  /** How it was answered. */
  fault: Fault;
  /** Its headers, names lower-cased. */
  headers: Record<string, string>;
}

/** A running fault fake. */
export interface FaultUpstream {
  /** `http://127.0.0.1:PORT`, the provider root. */
  readonly url: string;
  /** Every request, in arrival order. */
  readonly requests: FaultRequest[];
  /** Requests whose connection the gateway closed before their answer was over. */
  readonly aborted: number;
  /** Queues faults, one per coming request. */
  push(...faults: Fault[]): void;
  /** The answer once the queue is empty (`ok` by default). */
  otherwise(fault: Fault): void;
  /** Empties the queue, forgets the requests, and answers `ok` again. */
  clear(): void;
  close(): Promise<void>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An error-status fault: the wire's own error body for `code`, with `headers`. */
export function status(code: number, headers?: Record<string, string>): Fault {
  return headers === undefined ? { status: code } : { status: code, headers };
}

function anthropicType(code: number): string {
  if (code === 429) return "rate_limit_error";
  if (code === 529 || code === 503) return "overloaded_error";
  if (code === 404) return "not_found_error";
  if (code < 500) return "invalid_request_error";
  return "api_error";
}

/** The wire's own error body for `code` on `path` (`code` names OpenAI's error code). */
export function errorBody(
  path: string,
  status: number,
  message = `Failure ${status}`,
  code = null as string | null,
): string {
  if (path.endsWith("/messages")) {
    return JSON.stringify({ type: "error", error: { type: anthropicType(status), message } });
  }
  const type = status === 429
    ? "rate_limit_exceeded"
    : status < 500
    ? "invalid_request_error"
    : "server_error";
  return JSON.stringify({ error: { message, type, param: null, code } });
}

/** A 400 saying the request overflowed the context window, in the wire's own words. */
function overflowBody(path: string): string {
  return path.endsWith("/messages")
    ? errorBody(path, 400, "prompt is too long: 250000 tokens > 1000 maximum")
    : errorBody(
      path,
      400,
      "This model's maximum context length is 1000 tokens. However, your messages resulted in " +
        "250000 tokens.",
      "context_length_exceeded",
    );
}

/** The wire's own error event, as the first event of a stream. */
function errorEvent(path: string): string {
  if (path.endsWith("/messages")) {
    return 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error",' +
      '"message":"Overloaded"}}\n\n';
  }
  if (path.endsWith("/responses")) {
    return 'event: response.failed\ndata: {"type":"response.failed","sequence_number":0,' +
      '"response":{"id":"resp_up","object":"response","status":"failed","output":[],' +
      '"error":{"code":"server_error","message":"Overloaded"}}}\n\n';
  }
  return 'data: {"error":{"message":"Overloaded","type":"server_error","param":null,' +
    '"code":null}}\n\n';
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

interface Incoming {
  path: string;
  raw: string;
  model: string;
  stream: boolean;
  headers: Record<string, string>;
}

/** Reads one request (head and content-length body); null when the connection closed first. */
async function readRequest(conn: Deno.Conn): Promise<Incoming | null> {
  const chunk = new Uint8Array(64 * 1024);
  let buffer: Uint8Array = new Uint8Array(0);
  for (;;) {
    // The head is ASCII: its end is at the same offset in the text as in the bytes.
    const end = decoder.decode(buffer).indexOf("\r\n\r\n");
    const head = end < 0 ? "" : decoder.decode(buffer.subarray(0, end));
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (end >= 0 && buffer.length >= end + 4 + length) {
      const raw = decoder.decode(buffer.subarray(end + 4, end + 4 + length));
      let json: { model?: unknown; stream?: unknown } = {};
      try {
        json = JSON.parse(raw);
      } catch {
        // Recorded with no model.
      }
      const model = typeof json.model === "string" ? json.model : "";
      const path = head.split(" ")[1] ?? "/";
      return { path, raw, model, stream: json.stream === true, headers: headersOf(head) };
    }
    const n = await conn.read(chunk);
    if (n === null) return null;
    buffer = concat(buffer, chunk.subarray(0, n));
  }
}

/** Resolves when the peer closes the connection (its request was read whole before). */
async function closedByPeer(conn: Deno.Conn): Promise<void> {
  const sink = new Uint8Array(1024);
  try {
    while (await conn.read(sink) !== null) { /* nothing else comes on a one-request connection */ }
  } catch {
    // A reset is a close too.
  }
}

/** Closes `conn`, already closed or not. */
export function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One connection's writer: every write after the connection broke is dropped. */
class Wire {
  #broken = false;
  constructor(readonly conn: Deno.Conn) {}

  async write(text: string | Uint8Array): Promise<void> {
    let bytes = typeof text === "string" ? encoder.encode(text) : text;
    while (!this.#broken && bytes.length > 0) {
      try {
        bytes = bytes.subarray(await this.conn.write(bytes));
      } catch {
        this.#broken = true;
      }
    }
  }

  /** The status line and headers; the body is chunked unless its `length` is given. */
  head(code: number, headers: Record<string, string>, length?: number): Promise<void> {
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    const framing = length === undefined
      ? "transfer-encoding: chunked"
      : `content-length: ${length}`;
    return this.write(
      `HTTP/1.1 ${code} Fault\r\n${lines.join("")}${framing}\r\nconnection: close\r\n\r\n`,
    );
  }

  chunk(text: string | Uint8Array): Promise<void> {
    const bytes = typeof text === "string" ? encoder.encode(text) : text;
    if (bytes.length === 0) return Promise.resolve();
    const size = encoder.encode(`${bytes.length.toString(16)}\r\n`);
    return this.write(concat(concat(size, bytes), encoder.encode("\r\n")));
  }

  async whole(code: number, type: string, body: string, headers: Record<string, string> = {}) {
    const bytes = encoder.encode(body);
    await this.head(code, { "content-type": type, ...headers }, bytes.length);
    await this.write(bytes);
  }

  close(): void {
    this.#broken = true;
    closeQuietly(this.conn);
  }
}

const SSE = "text/event-stream; charset=utf-8";
const JSON_TYPE = "application/json";

/** Starts a fault fake. */
export function startFaultUpstream(): FaultUpstream {
  const scripted = startScriptedUpstream();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  const requests: FaultRequest[] = [];
  let queue: Fault[] = [];
  let standing: Fault = "ok";
  let aborted = 0;

  /** The scripted upstream's real answer to the same request. */
  const real = ({ path, raw }: Incoming, signal: AbortSignal) =>
    fetch(`${scripted.url}${path}`, { method: "POST", body: raw, signal });

  /** Sends the real answer; streams at one event per `dripMs` when given. */
  async function answerOk(wire: Wire, incoming: Incoming, gone: AbortSignal, dripMs?: number) {
    const response = await real(incoming, gone);
    const type = response.headers.get("content-type") ?? JSON_TYPE;
    if (!type.includes("event-stream")) {
      return wire.whole(response.status, type, await response.text());
    }
    await wire.head(response.status, { "content-type": type });
    if (dripMs === undefined) {
      for await (const bytes of response.body!) await wire.chunk(bytes);
    } else {
      for (const event of (await response.text()).split(/(?<=\n\n)/)) {
        if (gone.aborted) return;
        await wire.chunk(event);
        await sleep(dripMs);
      }
    }
    await wire.write("0\r\n\r\n");
  }

  /** 200 and the first two events of the real stream (half the body when not streamed). */
  async function answerStart(wire: Wire, incoming: Incoming, gone: AbortSignal) {
    const response = await real(incoming, gone);
    if (!incoming.stream) {
      const bytes = encoder.encode(await response.text());
      await wire.head(200, { "content-type": JSON_TYPE }, bytes.length);
      await wire.write(bytes.subarray(0, bytes.length >> 1));
      return;
    }
    let text = "";
    for await (const bytes of response.body!) {
      text += decoder.decode(bytes, { stream: true });
      if (text.split("\n\n").length > 2) break;
    }
    await wire.head(200, { "content-type": SSE });
    await wire.chunk(`${text.split("\n\n").slice(0, 2).join("\n\n")}\n\n`);
  }

  async function serve(conn: Deno.Conn): Promise<void> {
    const wire = new Wire(conn);
    const incoming = await readRequest(conn).catch(() => null);
    if (incoming === null) return wire.close();
    const { path, model, stream, headers } = incoming;
    const fault = queue.shift() ?? standing;
    requests.push({ path, model, stream, time: Date.now(), fault, headers });
    const leaving = new AbortController();
    let finished = false;
    closedByPeer(conn).then(() => {
      if (!finished) aborted++;
      leaving.abort();
    });
    const gone = leaving.signal;
    const untilGone = new Promise<void>((resolve) =>
      gone.addEventListener("abort", () => resolve())
    );
    const type = stream ? SSE : JSON_TYPE;
    try {
      if (typeof fault === "object" && "status" in fault) {
        const text = errorBody(path, fault.status);
        return await wire.whole(fault.status, JSON_TYPE, text, fault.headers);
      }
      if (typeof fault === "object") {
        await Promise.race([sleep(fault.slowMs), untilGone]);
        return gone.aborted ? undefined : await answerOk(wire, incoming, gone);
      }
      switch (fault) {
        case "ok":
        case "drip":
          return await answerOk(wire, incoming, gone, fault === "drip" ? 100 : undefined);
        case "reset":
          return;
        case "hang":
          return await untilGone;
        case "overflow":
          return await wire.whole(400, JSON_TYPE, overflowBody(path));
        case "cut_before_body":
          return await wire.head(200, { "content-type": type }, stream ? undefined : 100);
        case "silent_body":
          await wire.head(200, { "content-type": type }, stream ? undefined : 100);
          return await untilGone;
        case "error_event":
          await wire.head(200, { "content-type": SSE });
          await wire.chunk(errorEvent(path));
          return await wire.write("0\r\n\r\n");
        case "stall":
          await answerStart(wire, incoming, gone);
          return await untilGone;
        case "cut":
          await answerStart(wire, incoming, gone);
          return await sleep(20);
      }
    } catch {
      // The gateway left mid-answer.
    } finally {
      finished = true;
      wire.close();
      open.delete(conn);
    }
  }

  (async () => {
    try {
      for await (const conn of listener) {
        open.add(conn);
        serve(conn).catch(() => {});
      }
    } catch {
      // The listener closed.
    }
  })();

  return {
    url: `http://127.0.0.1:${listener.addr.port}`,
    requests,
    get aborted() {
      return aborted;
    },
    push: (...faults) => void queue.push(...faults),
    otherwise: (fault) => void (standing = fault),
    clear() {
      queue = [];
      standing = "ok";
      requests.length = 0;
      aborted = 0;
    },
    async close() {
      listener.close();
      open.forEach(closeQuietly);
      open.clear();
      await scripted.close();
    },
  };
}
