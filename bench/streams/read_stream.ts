/**
 * The streams bench's clients: each opens one streamed chat request and reads it to its end,
 * timing the gap between the reads that bring bytes. Two kinds:
 *
 * - `raw` (the default): HTTP/1.1 written and read on a `Deno.connect` socket with a small read
 *   buffer of its own; the body is not decoded, only watched for `[DONE]` and the chunked
 *   body's last chunk. One runtime read per arrival and nothing else: the cheapest reader
 *   Deno has, so the bench takes as little as it can of the cores it shares with the servers.
 * - `fetch`: the runtime's `fetch`, the body read as a stream (costlier per chunk, and it holds
 *   more memory per stream: the bench's own share of the machine is larger).
 * @module
 */

/** One stream's outcome. */
export interface StreamRead {
  ok: boolean;
  /** Largest gap between two reads that brought body bytes, ms. */
  maxGapMs: number;
  /** When the largest gap ended (`performance.now()`). */
  maxGapAt: number;
  /** Reads that brought body bytes. */
  reads: number;
  /** From the start of the request (before connecting) to its first body bytes, ms: what a
   * client waited for the stream to begin (admission, the upstream's connect and first chunk). */
  firstByteMs: number;
  error: string | null;
}

/** The outcome of a stream that failed with `error`. */
function failed(error: string): StreamRead {
  return { ok: false, maxGapMs: 0, maxGapAt: 0, reads: 0, firstByteMs: 0, error };
}

/** The timing of one stream's body reads, from the start of its request. */
class ReadTimes {
  readonly #started = performance.now();
  #last = 0;
  #maxGapMs = 0;
  #maxGapAt = 0;
  #reads = 0;
  #firstByteMs = 0;

  /** The response head is in: gaps count from now. */
  headIn(): void {
    this.#last = performance.now();
  }

  /** A read that brought body bytes. */
  bodyRead(): void {
    const now = performance.now();
    if (this.#reads === 0) this.#firstByteMs = now - this.#started;
    if (now - this.#last > this.#maxGapMs) {
      this.#maxGapMs = now - this.#last;
      this.#maxGapAt = now;
    }
    this.#last = now;
    this.#reads++;
  }

  /** The outcome of a stream whose body ended with `tail`. */
  outcome(tail: string): StreamRead {
    const ok = tail.includes("[DONE]");
    return {
      ok,
      maxGapMs: this.#maxGapMs,
      maxGapAt: this.#maxGapAt,
      reads: this.#reads,
      firstByteMs: this.#firstByteMs,
      error: ok ? null : "ended without [DONE]",
    };
  }
}

/** What every stream of a run sends. */
export interface StreamRequest {
  /** `http://127.0.0.1:PORT/v1/chat/completions`. */
  url: string;
  /** The `authorization` value, or null to send none. */
  authorization: string | null;
  body: string;
}

/** Reads one stream with the runtime's `fetch`. */
export async function fetchStream(request: StreamRequest): Promise<StreamRead> {
  const times = new ReadTimes();
  try {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (request.authorization !== null) headers.authorization = request.authorization;
    const response = await fetch(request.url, { method: "POST", headers, body: request.body });
    if (!response.ok || response.body === null) {
      await response.body?.cancel();
      return failed(`HTTP ${response.status}`);
    }
    const decoder = new TextDecoder();
    let tail = "";
    times.headIn();
    for await (const chunk of response.body) {
      times.bodyRead();
      tail = (tail + decoder.decode(chunk, { stream: true })).slice(-64);
    }
    return times.outcome(tail);
  } catch (error) {
    return failed(String(error));
  }
}

const encoder = new TextEncoder();
const READ_BYTES = 4096;

/** The last `n` characters of `tail` followed by `bytes` as Latin-1 (the body is not decoded:
 * only ASCII markers are looked for). */
function appendTail(tail: string, bytes: Uint8Array, n: number): string {
  const from = Math.max(0, bytes.length - n);
  return (tail + String.fromCharCode(...bytes.subarray(from))).slice(-n);
}

/** Each request's bytes, encoded once for all the streams that send it. */
const wires = new WeakMap<StreamRequest, Uint8Array>();

/** `request` as HTTP/1.1 bytes (`connection: close`). */
function wireOf(request: StreamRequest): Uint8Array {
  let wire = wires.get(request);
  if (wire === undefined) {
    const url = new URL(request.url);
    const body = encoder.encode(request.body);
    const head = encoder.encode(
      `POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\n` +
        (request.authorization === null ? "" : `authorization: ${request.authorization}\r\n`) +
        `content-type: application/json\r\ncontent-length: ${body.length}\r\n` +
        `connection: close\r\n\r\n`,
    );
    wire = new Uint8Array(head.length + body.length);
    wire.set(head);
    wire.set(body, head.length);
    wires.set(request, wire);
  }
  return wire;
}

/** Reads one stream over a socket of its own. */
export async function rawStream(request: StreamRequest): Promise<StreamRead> {
  let conn: Deno.TcpConn | null = null;
  const times = new ReadTimes();
  try {
    const url = new URL(request.url);
    conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
    conn.setNoDelay(true);
    const out = wireOf(request);
    for (let sent = 0; sent < out.length;) sent += await conn.write(out.subarray(sent));
    const buffer = new Uint8Array(READ_BYTES);
    let headText = "";
    let status = 0;
    let chunked = false;
    let tail = "";
    for (;;) {
      const n = await conn.read(buffer);
      if (n === null) break;
      let bytes = buffer.subarray(0, n);
      if (status === 0) {
        headText += String.fromCharCode(...bytes);
        const end = headText.indexOf("\r\n\r\n");
        if (end === -1) continue;
        status = Number(/^HTTP\/1\.\d (\d{3})/.exec(headText)?.[1] ?? 0);
        if (status !== 200) {
          return failed(`HTTP ${status}`);
        }
        chunked = /^transfer-encoding:\s*chunked/im.test(headText.slice(0, end));
        bytes = bytes.subarray(bytes.length - (headText.length - end - 4));
        times.headIn();
        if (bytes.length === 0) continue;
      }
      times.bodyRead();
      tail = appendTail(tail, bytes, 64);
      if (chunked && tail.endsWith("\r\n0\r\n\r\n")) break;
    }
    return times.outcome(tail);
  } catch (error) {
    return failed(String(error));
  } finally {
    try {
      conn?.close();
    } catch {
      // Already closed.
    }
  }
}
