import assert from "node:assert/strict";
import { answering, delay, type RawSocket, withRawServer } from "./testing.ts";

const GET = { method: "GET", headers: {} };
const OK = (body: string) => `HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`;

Deno.test("a pooled connection the server closed while idle is replaced transparently", async () => {
  const closedIdle = Promise.withResolvers<void>();
  const script = async (socket: RawSocket, index: number) => {
    if (index > 0) return await answering(OK(`on connection ${index}`))(socket);
    await socket.request();
    await socket.write(OK("first"));
    socket.close();
    closedIdle.resolve();
  };
  await withRawServer(script, async (url, client, server) => {
    assert.equal(await (await client.fetch(url, GET)).text(), "first");
    assert.equal(client.idle, 1);
    await closedIdle.promise;
    await delay(20);
    const response = await client.fetch(url, GET);
    assert.equal(await response.text(), "on connection 1");
    assert.equal(server.accepted, 2);
    assert.equal(client.idle, 1);
  });
});

Deno.test("a reused connection closed before answering sends the request again", async () => {
  const bodies: string[] = [];
  const script = async (socket: RawSocket, index: number) => {
    for (let request = await socket.request(); request; request = await socket.request()) {
      bodies.push(`${index}:${request.body}`);
      // The server's idle timer fires just as the second request arrives.
      if (index === 0 && bodies.length === 2) return;
      await socket.write(OK(`answer ${bodies.length}`));
    }
  };
  await withRawServer(script, async (url, client, server) => {
    const post = (body: string) => client.fetch(url, { method: "POST", headers: {}, body });
    assert.equal(await (await post("one")).text(), "answer 1");
    assert.equal(await (await post("two")).text(), "answer 3");
    assert.deepEqual(bodies, ["0:one", "0:two", "1:two"]);
    assert.equal(server.accepted, 2);
  });
});

Deno.test("a fresh connection closed before answering fails, with no retry", async () => {
  const script = async (socket: RawSocket) => {
    await socket.request();
  };
  await withRawServer(script, async (url, client, server) => {
    await assert.rejects(
      client.fetch(url, GET),
      /the upstream closed the connection before sending a response/,
    );
    assert.equal(server.accepted, 1);
    assert.equal(client.idle, 0);
  });
});

Deno.test("a stale pooled connection is retried once on a fresh one, whose failure is final", async () => {
  const script = async (socket: RawSocket, index: number) => {
    await socket.request();
    if (index === 0) {
      await socket.write(OK("first"));
      await socket.request();
    }
  };
  await withRawServer(script, async (url, client, server) => {
    assert.equal(await (await client.fetch(url, GET)).text(), "first");
    await assert.rejects(client.fetch(url, GET), /closed the connection before sending/);
    assert.equal(server.accepted, 2);
    assert.equal(client.idle, 0);
  });
});

Deno.test("a reused connection that closes after part of an answer is not retried", async () => {
  const script = async (socket: RawSocket) => {
    await socket.request();
    await socket.write(OK("first"));
    await socket.request();
    await socket.write("HTTP/1.1 200 OK\r\ncontent-le");
  };
  await withRawServer(script, async (url, client, server) => {
    assert.equal(await (await client.fetch(url, GET)).text(), "first");
    await assert.rejects(client.fetch(url, GET), /closed the connection before sending/);
    assert.equal(server.accepted, 1, "the request, maybe acted on, was not sent again");
  });
});

Deno.test("every stale connection in the pool is skipped before a fresh one", async () => {
  const closed: Promise<void>[] = [];
  const script = async (socket: RawSocket, index: number) => {
    if (index >= 2) return await answering(OK("fresh"))(socket);
    const done = Promise.withResolvers<void>();
    closed.push(done.promise);
    await socket.request();
    await delay(30);
    await socket.write(OK("pooled"));
    socket.close();
    done.resolve();
  };
  await withRawServer(script, async (url, client, server) => {
    const both = await Promise.all([client.fetch(url, GET), client.fetch(url, GET)]);
    assert.deepEqual(await Promise.all(both.map((r) => r.text())), ["pooled", "pooled"]);
    assert.equal(client.idle, 2);
    await Promise.all(closed);
    await delay(20);
    assert.equal(await (await client.fetch(url, GET)).text(), "fresh");
    assert.equal(server.accepted, 3);
  });
});
