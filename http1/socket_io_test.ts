import assert from "node:assert/strict";
import { socketIo } from "./socket_io.ts";

const testdata = new URL("./testdata/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, testdata));
const CA = read("test_ca.pem");
const CERT = read("localhost.pem");
const KEY = read("localhost.key");

/** TCP; TLS from `Deno.connectTls`; TLS from `Deno.startTls` over a TCP connection, as
 * `Connection.open` makes it. */
type Transport = "tcp" | "tls" | "starttls";

/** The client side of a connection to `port` over `transport`. */
async function connect(transport: Transport, port: number): Promise<Deno.Conn> {
  const hostname = "127.0.0.1";
  switch (transport) {
    case "tcp":
      return await Deno.connect({ hostname, port });
    case "tls":
      return await Deno.connectTls({ hostname, port, caCerts: [CA] });
    case "starttls": {
      const tcp = await Deno.connect({ hostname, port });
      const tls = await Deno.startTls(tcp, { hostname, caCerts: [CA] });
      await tls.handshake();
      return tls;
    }
    default: {
      const never: never = transport;
      throw new Error(`unknown transport ${never}`);
    }
  }
}

/** A client connection over `transport` and the server's end of it. */
async function pair(transport: Transport): Promise<{ client: Deno.Conn; server: Deno.Conn }> {
  const listener = transport === "tcp"
    ? Deno.listen({ hostname: "127.0.0.1", port: 0 })
    : Deno.listenTls({ hostname: "127.0.0.1", port: 0, cert: CERT, key: KEY });
  const [client, server] = await Promise.all([
    connect(transport, listener.addr.port),
    listener.accept(),
  ]);
  listener.close();
  return { client, server };
}

/** Runs `body` over TCP and both kinds of TLS, through the runtime's ops and through the public methods. */
function bothWays(
  name: string,
  body: (io: ReturnType<typeof socketIo>, client: Deno.Conn, server: Deno.Conn) => Promise<void>,
) {
  for (const transport of ["tcp", "tls", "starttls"] as const) {
    for (const direct of [true, false]) {
      const how = direct ? "the runtime's ops" : "the public methods";
      Deno.test(`${name} (${transport}, ${how})`, async () => {
        const { client, server } = await pair(transport);
        try {
          const io = socketIo(client, direct);
          assert.equal(io.direct, direct);
          await body(io, client, server);
        } finally {
          for (const conn of [client, server]) {
            try {
              conn.close();
            } catch {
              // Closed by the test.
            }
          }
        }
      });
    }
  }
}

async function readUntil(conn: Deno.Conn, n: number): Promise<string> {
  const buffer = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const count = await conn.read(buffer.subarray(got));
    assert.ok(count !== null);
    got += count;
  }
  return new TextDecoder().decode(buffer);
}

bothWays("writes reach the peer and reads count what it sent", async (io, _client, server) => {
  const request = new TextEncoder().encode("GET / HTTP/1.1\r\n\r\n");
  let written = 0;
  while (written < request.length) written += await io.write(request.subarray(written));
  assert.equal(await readUntil(server, request.length), "GET / HTTP/1.1\r\n\r\n");

  await server.write(new TextEncoder().encode("HTTP/1.1 200 OK\r\n"));
  const buffer = new Uint8Array(64);
  const count = await io.read(buffer);
  assert.ok(count !== null && count > 0);
  assert.equal(new TextDecoder().decode(buffer.subarray(0, count)), "HTTP/1.1 200 OK\r\n");
});

bothWays("the end of the socket reads as 0 or null", async (io, _client, server) => {
  server.close();
  const count = await io.read(new Uint8Array(64));
  assert.ok(count === 0 || count === null, `read ${count} bytes after the peer closed`);
});

bothWays("closing the connection fails a read under way", async (io, client) => {
  const pending = io.read(new Uint8Array(64));
  client.close();
  await assert.rejects(pending);
});

Deno.test("this Deno exposes the ops the upstream client reads with (else streams cost more CPU)", async () => {
  const { client, server } = await pair("tcp");
  try {
    assert.equal(socketIo(client).direct, true);
  } finally {
    client.close();
    server.close();
  }
});
