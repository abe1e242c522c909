import assert from "node:assert/strict";
import { ConnectTimeoutError, createHttp1Client } from "./client.ts";
import { Connection } from "./connection.ts";
import { answering, delay, rawServer, type RawSocket, within, withRawServer } from "./testing.ts";

const OK = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";

/** A TCP server that accepts and never answers: a TLS handshake to it stalls. `hello` settles
 * with the first byte the first connection received (22 for a TLS handshake record). */
function silentServer() {
  const hello = Promise.withResolvers<number | undefined>();
  const server = rawServer(async (socket: RawSocket) => {
    const buffer = new Uint8Array(16 * 1024);
    const n = await socket.conn.read(buffer);
    hello.resolve(n === null ? undefined : buffer[0]);
    await socket.clientClosed();
  });
  return { server, https: server.url.replace("http://", "https://"), hello: hello.promise };
}

/** Runs `body` with `Connection.open` replaced by `open`. */
async function withOpen(
  open: typeof Connection.open,
  body: () => Promise<void>,
): Promise<void> {
  const original = Connection.open;
  Connection.open = open;
  try {
    await body();
  } finally {
    Connection.open = original;
  }
}

Deno.test("a stalled TLS handshake rejects with a ConnectTimeoutError", async () => {
  const { server, https, hello } = silentServer();
  const client = createHttp1Client();
  try {
    const started = performance.now();
    await assert.rejects(
      within(client.fetch(https, { method: "GET", headers: {}, connectTimeoutMs: 300 })),
      (error: unknown) => {
        assert.ok(error instanceof ConnectTimeoutError);
        assert.equal(error.message, `could not connect to ${https} within 300 ms`);
        assert.equal(error.origin, https);
        assert.equal(error.timeoutMs, 300);
        return true;
      },
    );
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 250 && elapsed < 1500, `took ${elapsed} ms`);
    assert.equal(await within(hello), 22, "the TCP connect succeeded; the handshake stalled");
    assert.equal(client.idle, 0);
  } finally {
    client.close();
    await server.close();
  }
});

Deno.test("an abort before the connect timeout rejects with the signal's reason", async () => {
  const { server, https, hello } = silentServer();
  const client = createHttp1Client();
  try {
    const controller = new AbortController();
    const reason = new Error("the caller went away");
    setTimeout(() => controller.abort(reason), 100);
    const response = client.fetch(https, {
      method: "GET",
      headers: {},
      signal: controller.signal,
      connectTimeoutMs: 5000,
    });
    await assert.rejects(within(response, 1000), (error: unknown) => error === reason);
    assert.equal(await within(hello), 22);
  } finally {
    client.close();
    await server.close();
  }
});

Deno.test("a request with a connect timeout works, and a pooled connection skips it", async () => {
  await withRawServer(answering(OK), async (url, client, server) => {
    const first = await client.fetch(url, { method: "GET", headers: {}, connectTimeoutMs: 1000 });
    assert.equal(await first.text(), "ok");
    assert.equal(client.idle, 1);
    // Opening a new connection would now never complete: only reuse can answer.
    await withOpen(() => new Promise<never>(() => {}), async () => {
      const again = await within(
        client.fetch(url, { method: "GET", headers: {}, connectTimeoutMs: 50 }),
      );
      assert.equal(await again.text(), "ok");
    });
    assert.equal(server.accepted, 1);
  });
});

Deno.test("a connection that opens after the timeout is closed", async () => {
  await withRawServer(answering(OK), async (url, client) => {
    const late = Promise.withResolvers<Connection>();
    const open = Connection.open;
    await withOpen(async (origin) => {
      await delay(200);
      const connection = await open(origin);
      late.resolve(connection);
      return connection;
    }, async () => {
      await assert.rejects(
        client.fetch(url, { method: "GET", headers: {}, connectTimeoutMs: 50 }),
        ConnectTimeoutError,
      );
      const connection = await within(late.promise);
      await delay(0);
      assert.equal(connection.closed, true);
    });
    assert.equal(client.idle, 0);
  });
});

Deno.test("a refused connection still rejects with ConnectionRefused", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const client = createHttp1Client();
  try {
    await assert.rejects(
      client.fetch(`http://127.0.0.1:${port}/`, {
        method: "GET",
        headers: {},
        connectTimeoutMs: 1000,
      }),
      Deno.errors.ConnectionRefused,
    );
  } finally {
    client.close();
  }
});

Deno.test("a connect that completed while the event loop was busy past the timeout is used", async () => {
  await withRawServer(answering(OK), async (url, client, server) => {
    // An overloaded gateway: the loop comes back long after the timer was due, with the
    // connect long done. The timer fires first in that turn; the connection must still win.
    const response = client.fetch(url, { method: "GET", headers: {}, connectTimeoutMs: 50 });
    const busyUntil = performance.now() + 400;
    while (performance.now() < busyUntil) {
      // The event loop is held here, as by other requests' work.
    }
    const answer = await within(response);
    assert.equal(await answer.text(), "ok");
    assert.equal(server.accepted, 1);
  });
});
