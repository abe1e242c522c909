/**
 * One client connection to an upstream origin: a TCP or TLS stream with its own read buffer,
 * sized to what the reads bring. A read waiting on the socket holds its buffer, and a stream
 * waits on it most of its life: 10,000 open streams each holding 64 KiB were 640 MB. So each
 * request's reads start at {@link FIRST_READ_BYTES} (a head and most whole JSON answers in one
 * read), a read that fills the buffer doubles it (up to {@link MAX_READ_BYTES}: a large body is
 * read in large reads), and a later read of the same answer that uses under a quarter of it
 * halves it (down to {@link MIN_READ_BYTES}: a stream's chunks are a few hundred bytes). The
 * first read never shrinks it, so a connection answering JSON keeps one buffer for all its
 * requests.
 * @module
 */
import { type SocketIo, socketIo } from "./socket_io.ts";

/** The read buffer each request on a connection starts with, at least. */
export const FIRST_READ_BYTES = 16 * 1024;
/** The largest read buffer. */
export const MAX_READ_BYTES = 64 * 1024;
/** The smallest read buffer. */
export const MIN_READ_BYTES = 2 * 1024;

/** Where a connection goes: scheme, host and port. */
export interface Origin {
  /** `https://api.example.com:443`, the pool's key. */
  key: string;
  tls: boolean;
  hostname: string;
  port: number;
}

/** The origin of `url`. */
export function originOf(url: URL): Origin {
  const tls = url.protocol === "https:";
  if (!tls && url.protocol !== "http:") {
    throw new TypeError(`the upstream client speaks http: and https:, not ${url.protocol}`);
  }
  const port = url.port === "" ? (tls ? 443 : 80) : Number(url.port);
  // URL keeps IPv6 literals bracketed; connect wants them bare.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return { key: `${url.protocol}//${url.hostname}:${port}`, tls, hostname, port };
}

/** An open connection. Reads hand out views of a reused buffer. */
export class Connection {
  readonly origin: Origin;
  /** When an idle connection stops being reusable (ms since the epoch). */
  idleUntil = 0;
  #conn: Deno.Conn;
  #io: SocketIo;
  /** The next read's buffer; null until a read needs it (or after its size changed). */
  #buffer: Uint8Array | null = null;
  #size = FIRST_READ_BYTES;
  /** Reads since the last request was written. */
  #reads = 0;
  #closed = false;

  constructor(conn: Deno.Conn, origin: Origin) {
    this.#conn = conn;
    this.#io = socketIo(conn);
    this.origin = origin;
  }

  /** Opens a connection to `origin` (TLS with ALPN `http/1.1` for https), resolving once the
   * TLS handshake is done. An abort of `signal` cancels the connect or the handshake. */
  static async open(origin: Origin, signal?: AbortSignal): Promise<Connection> {
    const tcp = await Deno.connect({ hostname: origin.hostname, port: origin.port, signal });
    // Each request goes out in one write; Nagle's algorithm would only delay it.
    tcp.setNoDelay(true);
    if (!origin.tls) return new Connection(tcp, origin);
    let tls: Deno.TlsConn;
    try {
      tls = await Deno.startTls(tcp, { hostname: origin.hostname, alpnProtocols: ["http/1.1"] });
    } catch (error) {
      closeQuietly(tcp);
      throw error;
    }
    // The handshake would otherwise happen at the first write; done here, a connect timeout
    // covers it. Closing a stalled one rejects it at once, but the runtime's handshake task
    // keeps the socket until the peer answers or closes it (Deno 2.9): nothing here can end it.
    const onAbort = () => closeQuietly(tls);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      signal?.throwIfAborted();
      await tls.handshake();
    } catch (error) {
      closeQuietly(tls);
      throw error;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
    return new Connection(tls, origin);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The size of the next read's buffer (tests). */
  get readSize(): number {
    return this.#size;
  }

  /** The next bytes from the socket (a view valid until the next read), or null at its end. */
  read(): Promise<Uint8Array | null> {
    return this.readCount().then(this.#took);
  }

  /** The next read as a byte count (0 or null at the end of the socket), whose bytes
   * {@link bytesOf} then hands out: what a body reader waits on, one promise per read instead of
   * two. (Neither is an async function: a stream reads once per chunk, and a suspended async
   * frame per read was most of what the upstream side allocated per chunk.) */
  readCount(): Promise<number | null> {
    const buffer = this.#buffer ??= new Uint8Array(this.#size);
    this.#reading = buffer;
    this.#reads++;
    return this.#io.read(buffer);
  }

  /** The buffer of the read under way. */
  #reading: Uint8Array | null = null;

  /** The bytes of the read that counted `n` (0 or null: the end), as a view valid until the
   * next read; sets the next read's size (the view stays valid either way: a new size, a new
   * buffer). */
  bytesOf(n: number | null): Uint8Array | null {
    const buffer = this.#reading!;
    this.#reading = null;
    if (n === null || n === 0) return null;
    if (n === buffer.length && this.#size < MAX_READ_BYTES) this.#resize(this.#size * 2);
    else if (n * 4 < buffer.length && this.#size > MIN_READ_BYTES && this.#reads > 1) {
      this.#resize(this.#size / 2);
    }
    return buffer.subarray(0, n);
  }

  #took = (n: number | null): Uint8Array | null => this.bytesOf(n);

  #resize(size: number): void {
    this.#size = size;
    this.#buffer = null;
  }

  /** Writes all of `bytes`: a request, whose answer's reads start at {@link FIRST_READ_BYTES} or
   * more. */
  async write(bytes: Uint8Array): Promise<void> {
    this.#reads = 0;
    if (this.#size < FIRST_READ_BYTES) this.#resize(FIRST_READ_BYTES);
    let written = 0;
    while (written < bytes.length) written += await this.#io.write(bytes.subarray(written));
  }

  /** Closes the socket; a pending read or write then fails. Safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer = null;
    closeQuietly(this.#conn);
  }
}

/** Closes `conn` unless the runtime already did (after an error, or an upgrade to TLS). */
function closeQuietly(conn: Deno.Conn): void {
  try {
    conn.close();
  } catch {
    // Already closed.
  }
}
