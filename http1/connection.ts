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

  /** Opens a connection to `origin` (TLS with ALPN `http/1.1` for https). */
  static async open(origin: Origin): Promise<Connection> {
    const conn = origin.tls
      ? await Deno.connectTls({
        hostname: origin.hostname,
        port: origin.port,
        alpnProtocols: ["http/1.1"],
      })
      : await Deno.connect({ hostname: origin.hostname, port: origin.port });
    // Each request goes out in one write; Nagle's algorithm would only delay it.
    if (!origin.tls) (conn as Deno.TcpConn).setNoDelay(true);
    return new Connection(conn, origin);
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
    try {
      this.#conn.close();
    } catch {
      // Already closed by the runtime after an error.
    }
  }
}
