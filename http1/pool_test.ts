import assert from "node:assert/strict";
import { Connection, originOf } from "./connection.ts";
import { Pool } from "./pool.ts";

/** `count` real loopback connections to one origin, with the server ends to see closes on. */
async function loopback(count: number) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const origin = originOf(new URL(`http://127.0.0.1:${listener.addr.port}/`));
  const connections: Connection[] = [];
  const servers: Deno.Conn[] = [];
  for (let i = 0; i < count; i++) {
    const [client, server] = await Promise.all([
      Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port }),
      listener.accept(),
    ]);
    connections.push(new Connection(client, origin));
    servers.push(server);
  }
  listener.close();
  return {
    origin,
    connections,
    /** Whether the server end of connection `i` sees end of stream (the client closed it). */
    async serverSeesClose(i: number): Promise<boolean> {
      return await servers[i]!.read(new Uint8Array(16)) === null;
    },
    [Symbol.dispose]() {
      for (const connection of connections) connection.close();
      for (const server of servers) server.close();
    },
  };
}

const at = (i: number, list: Connection[]) => list[i]!;

Deno.test("originOf keys scheme, host and port, with default ports and bare IPv6 hosts", () => {
  assert.deepEqual(originOf(new URL("https://api.example.com/v1")), {
    key: "https://api.example.com:443",
    tls: true,
    hostname: "api.example.com",
    port: 443,
  });
  assert.equal(originOf(new URL("http://example.com/")).key, "http://example.com:80");
  const v6 = originOf(new URL("http://[::1]:8080/"));
  assert.equal(v6.hostname, "::1");
  assert.equal(v6.key, "http://[::1]:8080");
  assert.throws(() => originOf(new URL("ftp://example.com/")), TypeError);
});

Deno.test("take gives null from an empty pool, then the most recently put connection", async () => {
  using net = await loopback(3);
  const pool = new Pool();
  assert.equal(pool.take(net.origin), null);
  for (const connection of net.connections) pool.put(connection);
  assert.equal(pool.size, 3);
  assert.equal(pool.take(net.origin), at(2, net.connections));
  assert.equal(pool.take(net.origin), at(1, net.connections));
  assert.equal(pool.size, 1);
  pool.close();
});

Deno.test("take skips and closes expired connections", async () => {
  using net = await loopback(2);
  const pool = new Pool();
  const [older, newer] = [at(0, net.connections), at(1, net.connections)];
  pool.put(older);
  pool.put(newer);
  newer.idleUntil = Date.now() - 1;
  assert.equal(pool.take(net.origin), older);
  assert.equal(newer.closed, true);
  assert.equal(await net.serverSeesClose(1), true);
  assert.equal(pool.size, 0);
  pool.close();
});

Deno.test("take skips connections closed while idle", async () => {
  using net = await loopback(2);
  const pool = new Pool();
  pool.put(at(0, net.connections));
  pool.put(at(1, net.connections));
  at(1, net.connections).close();
  assert.equal(pool.take(net.origin), at(0, net.connections));
  assert.equal(pool.take(net.origin), null);
  pool.close();
});

Deno.test("put keeps at most maxIdlePerOrigin per origin and closes the extra", async () => {
  using net = await loopback(3);
  using other = await loopback(1);
  const pool = new Pool({ maxIdlePerOrigin: 2 });
  for (const connection of net.connections) pool.put(connection);
  assert.equal(pool.size, 2);
  assert.equal(at(2, net.connections).closed, true);
  assert.equal(await net.serverSeesClose(2), true);
  // Another origin (another port) has its own limit.
  pool.put(at(0, other.connections));
  assert.equal(pool.size, 3);
  assert.equal(pool.take(other.origin), at(0, other.connections));
  assert.equal(pool.take(other.origin), null);
  assert.equal(pool.take(net.origin), at(1, net.connections));
  pool.close();
});

Deno.test("put caps the keep time at idleMs and closes at a keep time of zero", async () => {
  using net = await loopback(3);
  const pool = new Pool({ idleMs: 500 });
  const before = Date.now();
  pool.put(at(0, net.connections), 60_000);
  assert.ok(at(0, net.connections).idleUntil <= Date.now() + 500);
  assert.ok(at(0, net.connections).idleUntil >= before + 500);
  pool.put(at(1, net.connections), 0);
  assert.equal(at(1, net.connections).closed, true);
  at(2, net.connections).close();
  pool.put(at(2, net.connections));
  assert.equal(pool.size, 1);
  pool.close();
});

Deno.test("close closes every idle connection and empties the pool", async () => {
  using net = await loopback(3);
  const pool = new Pool();
  for (const connection of net.connections) pool.put(connection);
  pool.close();
  assert.equal(pool.size, 0);
  assert.equal(pool.take(net.origin), null);
  for (let i = 0; i < 3; i++) {
    assert.equal(at(i, net.connections).closed, true);
    assert.equal(await net.serverSeesClose(i), true);
  }
});

Deno.test("the sweep closes expired idle connections and then stops itself", async () => {
  using net = await loopback(2);
  const pool = new Pool();
  pool.put(at(0, net.connections), 10);
  pool.put(at(1, net.connections), 10);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  assert.equal(pool.size, 0);
  assert.equal(at(0, net.connections).closed, true);
  assert.equal(at(1, net.connections).closed, true);
  // No pool.close(): the op sanitizer fails this test if the sweep interval were still running.
});
