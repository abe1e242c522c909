/**
 * Test helpers for the HTTP/1.1 client: a raw TCP server whose connections a test scripts byte
 * by byte, for the answers a well-behaved server never gives.
 * @module
 */
import { createHttp1Client, type Http1Client } from "./client.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Resolves after `ms`. */
export const delay = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** A request as the server read it. */
export interface RawRequest {
  /** Request line and header lines, without the blank line. */
  head: string;
  /** Header values by lowercase name (the last of repeated ones). */
  headers: Map<string, string>;
  body: string;
}

/** The server end of one connection. */
export class RawSocket {
  /** The accepted connection. */
  readonly conn: Deno.Conn;
  #buffered = new Uint8Array(0);
  #closed = false;

  constructor(conn: Deno.Conn) {
    this.conn = conn;
  }

  /** The next request on this connection (bodies by content-length), or null at its end. */
  async request(): Promise<RawRequest | null> {
    for (;;) {
      const end = this.#indexOf("\r\n\r\n");
      if (end !== -1) {
        const head = decoder.decode(this.#buffered.subarray(0, end));
        const headers = new Map<string, string>();
        for (const line of head.split("\r\n").slice(1)) {
          const colon = line.indexOf(":");
          headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
        }
        const length = Number(headers.get("content-length") ?? "0");
        while (this.#buffered.length < end + 4 + length) {
          if (!await this.#fill()) throw new Error("the client closed in a request body");
        }
        const body = decoder.decode(this.#buffered.subarray(end + 4, end + 4 + length));
        this.#buffered = this.#buffered.slice(end + 4 + length);
        return { head, headers, body };
      }
      if (!await this.#fill()) return null;
    }
  }

  /** Writes `data` (text is UTF-8 encoded). */
  async write(data: string | Uint8Array): Promise<void> {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    let written = 0;
    while (written < bytes.length) written += await this.conn.write(bytes.subarray(written));
  }

  /** Waits for the client to close its end; true when it did (end of stream or a reset). */
  async clientClosed(): Promise<boolean> {
    try {
      while (await this.#fill());
      return true;
    } catch (error) {
      if (error instanceof Deno.errors.ConnectionReset) return true;
      throw error;
    }
  }

  /** Closes the server end. Safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.conn.close();
  }

  async #fill(): Promise<boolean> {
    const chunk = new Uint8Array(16 * 1024);
    const n = await this.conn.read(chunk);
    if (n === null) return false;
    const joined = new Uint8Array(this.#buffered.length + n);
    joined.set(this.#buffered);
    joined.set(chunk.subarray(0, n), this.#buffered.length);
    this.#buffered = joined;
    return true;
  }

  #indexOf(text: string): number {
    const needle = encoder.encode(text);
    outer: for (let i = 0; i + needle.length <= this.#buffered.length; i++) {
      for (let j = 0; j < needle.length; j++) {
        if (this.#buffered[i + j] !== needle[j]) continue outer;
      }
      return i;
    }
    return -1;
  }
}

/** A listening raw server. */
export interface RawServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Stops listening, closes every connection, and rethrows the first error of a script. */
  close(): Promise<void>;
}

/** A TCP server on 127.0.0.1 that hands connection number `index` (from 0) to `script`; the
 * connection is closed when the script returns. */
export function rawServer(
  script: (socket: RawSocket, index: number) => Promise<void>,
): RawServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const sockets: RawSocket[] = [];
  const scripts: Promise<void>[] = [];
  const errors: unknown[] = [];
  let closing = false;
  const accepting = (async () => {
    for (;;) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch {
        return;
      }
      const socket = new RawSocket(conn);
      sockets.push(socket);
      scripts.push(
        script(socket, sockets.length - 1)
          .catch((error) => {
            if (!closing) errors.push(error);
          })
          .finally(() => socket.close()),
      );
    }
  })();
  return {
    url: `http://127.0.0.1:${listener.addr.port}`,
    get accepted() {
      return sockets.length;
    },
    async close() {
      closing = true;
      listener.close();
      await accepting;
      for (const socket of sockets) socket.close();
      await Promise.all(scripts);
      if (errors.length > 0) throw errors[0];
    },
  };
}

/** Runs `body` with a {@link rawServer} running `script` and a fresh client; closes both after,
 * the client first. */
export async function withRawServer(
  script: (socket: RawSocket, index: number) => Promise<void>,
  body: (url: string, client: Http1Client, server: RawServer) => Promise<void>,
): Promise<void> {
  const server = rawServer(script);
  const client = createHttp1Client();
  try {
    await body(server.url, client, server);
  } finally {
    client.close();
    await server.close();
  }
}

/** `promise`, or a rejection when it has not settled within `ms`. */
export async function within<T>(promise: Promise<T>, ms = 2000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A script that answers every request on its connection with `answer`. */
export function answering(answer: string | Uint8Array) {
  return async (socket: RawSocket): Promise<void> => {
    while (await socket.request()) await socket.write(answer);
  };
}

/** A script that reads one request, writes `answer` (if any), and then only watches: `arrived`
 * settles once the answer is out, `closed` with whether the client closed its end. */
export function hanging(answer = "") {
  const arrived = Promise.withResolvers<void>();
  const closed = Promise.withResolvers<boolean>();
  const script = async (socket: RawSocket) => {
    await socket.request();
    if (answer !== "") await socket.write(answer);
    arrived.resolve();
    closed.resolve(await socket.clientClosed());
  };
  return { script, arrived: arrived.promise, closed: closed.promise };
}
