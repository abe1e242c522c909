/**
 * One client connection to an upstream origin: a TCP or TLS stream with its own read buffer.
 * @module
 */

/** The read buffer per connection. One read returns whatever the socket holds, up to this. */
const READ_BUFFER_BYTES = 64 * 1024;

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

/** An open connection. Reads hand out views of one reused buffer. */
export class Connection {
  readonly origin: Origin;
  /** When an idle connection stops being reusable (ms since the epoch). */
  idleUntil = 0;
  #conn: Deno.Conn;
  #buffer = new Uint8Array(READ_BUFFER_BYTES);
  #closed = false;

  constructor(conn: Deno.Conn, origin: Origin) {
    this.#conn = conn;
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

  /** The next bytes from the socket (a view valid until the next read), or null at its end. */
  async read(): Promise<Uint8Array | null> {
    const n = await this.#conn.read(this.#buffer);
    return n === null ? null : this.#buffer.subarray(0, n);
  }

  /** Writes all of `bytes`. */
  async write(bytes: Uint8Array): Promise<void> {
    let written = 0;
    while (written < bytes.length) written += await this.#conn.write(bytes.subarray(written));
  }

  /** Closes the socket; a pending read or write then fails. Safe to call twice. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
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
