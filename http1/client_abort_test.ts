import assert from "node:assert/strict";
import { bodyReaderOf } from "./response.ts";
import { createHttp1Client, type Http1Client } from "./client.ts";
import { Connection } from "./connection.ts";
import { hanging, type RawSocket, within, withRawServer } from "./testing.ts";

const CHUNKED_HEAD = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n";

/** A GET of `url` with an abort signal, and a reader of its body. */
async function abortableBody(client: Http1Client, url: string) {
  const controller = new AbortController();
  const response = await client.fetch(url, {
    method: "GET",
    headers: {},
    signal: controller.signal,
  });
  return { controller, reader: response.body!.getReader() };
}

Deno.test("an abort before the head rejects with an AbortError and closes the connection", async () => {
  const { script, arrived, closed } = hanging();
  await withRawServer(script, async (url, client) => {
    const controller = new AbortController();
    const response = client.fetch(url, { method: "POST", headers: {}, signal: controller.signal });
    await arrived;
    controller.abort();
    await assert.rejects(response, (error: unknown) => {
      assert.ok(error instanceof DOMException);
      assert.equal(error.name, "AbortError");
      return true;
    });
    assert.equal(await within(closed), true);
    assert.equal(client.idle, 0);
  });
});

Deno.test("an abort rejects with the signal's own reason", async () => {
  const { script, arrived, closed } = hanging();
  await withRawServer(script, async (url, client) => {
    const controller = new AbortController();
    const reason = new Error("the caller went away");
    const response = client.fetch(url, { method: "GET", headers: {}, signal: controller.signal });
    await arrived;
    controller.abort(reason);
    await assert.rejects(response, (error: unknown) => error === reason);
    assert.equal(await within(closed), true);
  });
});

Deno.test("an already aborted signal rejects without connecting", async () => {
  await withRawServer(async () => {}, async (url, client, server) => {
    const signal = AbortSignal.abort();
    await assert.rejects(
      client.fetch(url, { method: "GET", headers: {}, signal }),
      (error: unknown) => error === signal.reason,
    );
    assert.equal(server.accepted, 0);
  });
});

Deno.test("an abort on a reused connection rejects and is not retried", async () => {
  const closed = Promise.withResolvers<boolean>();
  const arrived = Promise.withResolvers<void>();
  const script = async (socket: RawSocket) => {
    await socket.request();
    await socket.write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
    await socket.request();
    arrived.resolve();
    closed.resolve(await socket.clientClosed());
  };
  await withRawServer(script, async (url, client, server) => {
    assert.equal(await (await client.fetch(url, { method: "GET", headers: {} })).text(), "ok");
    const controller = new AbortController();
    const response = client.fetch(url, { method: "GET", headers: {}, signal: controller.signal });
    await arrived.promise;
    controller.abort();
    await assert.rejects(response, (error: unknown) => error === controller.signal.reason);
    assert.equal(await within(closed.promise), true);
    assert.equal(server.accepted, 1);
  });
});

Deno.test("an abort just as the connection opens is not missed", async () => {
  const open = Connection.open;
  try {
    // Each number of microtask hops after the open lands the abort at another await in between.
    for (let hops = 0; hops < 8; hops++) {
      const controller = new AbortController();
      Connection.open = async (origin) => {
        const connection = await open(origin);
        (async () => {
          for (let i = 0; i < hops; i++) await null;
          controller.abort();
        })();
        return connection;
      };
      const script = async (socket: RawSocket) => {
        assert.equal(await socket.request(), null, "no request was sent");
      };
      await withRawServer(script, async (url, client) => {
        const response = client.fetch(url, {
          method: "GET",
          headers: {},
          signal: controller.signal,
        });
        await assert.rejects(within(response, 1000), (error: unknown) => {
          return error === controller.signal.reason;
        }, `abort after ${hops} hops`);
      });
    }
  } finally {
    Connection.open = open;
  }
});

Deno.test("an abort mid-body errors the body read and closes the connection", async () => {
  const { script, closed } = hanging(`${CHUNKED_HEAD}5\r\nfirst\r\n`);
  await withRawServer(script, async (url, client) => {
    const { controller, reader } = await abortableBody(client, url);
    assert.equal(new TextDecoder().decode((await reader.read()).value), "first");
    const pending = reader.read();
    controller.abort();
    await assert.rejects(pending, (error: unknown) => {
      assert.equal((error as DOMException).name, "AbortError");
      return true;
    });
    assert.equal(await within(closed), true);
    assert.equal(client.idle, 0);
  });
});

Deno.test("an abort between body reads errors the next read", async () => {
  const { script, closed } = hanging(`${CHUNKED_HEAD}5\r\nfirst\r\n`);
  await withRawServer(script, async (url, client) => {
    const { controller, reader } = await abortableBody(client, url);
    await reader.read();
    controller.abort();
    assert.equal(await within(closed), true);
    await assert.rejects(reader.read(), (error: unknown) => error === controller.signal.reason);
    assert.equal(client.idle, 0);
  });
});

Deno.test("cancelling the body closes the connection instead of pooling it", async () => {
  const { script, closed } = hanging(`${CHUNKED_HEAD}5\r\nfirst\r\n`);
  await withRawServer(script, async (url, client) => {
    const response = await client.fetch(url, { method: "GET", headers: {} });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    assert.equal(await within(closed), true);
    assert.equal(client.idle, 0);
  });
});

Deno.test("cancelling the body's reader closes the connection instead of pooling it", async () => {
  const { script, closed } = hanging(`${CHUNKED_HEAD}5\r\nfirst\r\n`);
  await withRawServer(script, async (url, client) => {
    const response = await client.fetch(url, { method: "GET", headers: {} });
    const reader = bodyReaderOf(response)!;
    assert.equal(new TextDecoder().decode((await reader.read())!), "first");
    await reader.cancel();
    assert.equal(await within(closed), true);
    assert.equal(await reader.read(), null);
    assert.equal(client.idle, 0);
  });
});

Deno.test("cancelling an unread body closes the connection", async () => {
  const { script, closed } = hanging("HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial");
  await withRawServer(script, async (url, client) => {
    const response = await client.fetch(url, { method: "GET", headers: {} });
    await response.body!.cancel();
    assert.equal(await within(closed), true);
    assert.equal(client.idle, 0);
  });
});

Deno.test("an abort after the body has been read leaves the connection pooled", async () => {
  const script = async (socket: RawSocket) => {
    await socket.request();
    await socket.write("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
    await socket.clientClosed();
  };
  await withRawServer(script, async (url, client) => {
    const controller = new AbortController();
    const response = await client.fetch(url, {
      method: "GET",
      headers: {},
      signal: controller.signal,
    });
    assert.equal(await response.text(), "ok");
    controller.abort();
    assert.equal(client.idle, 1);
  });
});

Deno.test("a connect to a closed port rejects", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const client = createHttp1Client();
  try {
    await assert.rejects(
      client.fetch(`http://127.0.0.1:${port}/`, { method: "GET", headers: {} }),
      Deno.errors.ConnectionRefused,
    );
    assert.equal(client.idle, 0);
  } finally {
    client.close();
  }
});

Deno.test("a URL that is not http or https rejects", async () => {
  const client = createHttp1Client();
  await assert.rejects(client.fetch("ftp://127.0.0.1/", { method: "GET", headers: {} }), TypeError);
  client.close();
});
