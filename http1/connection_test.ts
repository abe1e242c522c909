import assert from "node:assert/strict";
import {
  Connection,
  FIRST_READ_BYTES,
  MAX_READ_BYTES,
  MIN_READ_BYTES,
  originOf,
} from "./connection.ts";
import { delay } from "./testing.ts";

/** A connection to a loopback server end the test writes to. */
async function pair() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const origin = originOf(new URL(`http://127.0.0.1:${listener.addr.port}/`));
  const [client, server] = await Promise.all([
    Deno.connect({ hostname: "127.0.0.1", port: listener.addr.port }),
    listener.accept(),
  ]);
  listener.close();
  const connection = new Connection(client, origin);
  return {
    connection,
    /** Writes `n` bytes from the server end and waits until they arrived. */
    async send(n: number) {
      const bytes = new Uint8Array(n).fill(0x61);
      for (let sent = 0; sent < n;) sent += await server.write(bytes.subarray(sent));
      await delay(20);
    },
    [Symbol.dispose]() {
      connection.close();
      server.close();
    },
  };
}

/** Reads until `n` bytes came; returns the sizes of the reads. */
async function readAll(connection: Connection, n: number): Promise<number[]> {
  const reads: number[] = [];
  for (let got = 0; got < n;) {
    const chunk = await connection.read();
    assert.ok(chunk !== null);
    reads.push(chunk.length);
    got += chunk.length;
  }
  return reads;
}

Deno.test("a connection's reads start at the first size and grow while they fill the buffer", async () => {
  using p = await pair();
  assert.equal(p.connection.readSize, FIRST_READ_BYTES);
  await p.send(200 * 1024);
  const reads = await readAll(p.connection, 200 * 1024);
  // 16 KiB, 32 KiB, then 64 KiB reads (never more).
  assert.deepEqual(reads.slice(0, 3), [FIRST_READ_BYTES, 2 * FIRST_READ_BYTES, MAX_READ_BYTES]);
  assert.ok(reads.every((n) => n <= MAX_READ_BYTES));
});

Deno.test("a stream's small reads after the first shrink the buffer to the least; a new request starts it over", async () => {
  using p = await pair();
  await p.send(300);
  assert.deepEqual(await readAll(p.connection, 300), [300]);
  // The first read of an answer (its head, or a whole JSON body) keeps the buffer.
  assert.equal(p.connection.readSize, FIRST_READ_BYTES);
  for (let i = 0; i < 4; i++) {
    await p.send(300);
    assert.deepEqual(await readAll(p.connection, 300), [300]);
  }
  assert.equal(p.connection.readSize, MIN_READ_BYTES);
  // A burst larger than the small buffer comes in several reads, and grows it again.
  await p.send(5000);
  const reads = await readAll(p.connection, 5000);
  assert.equal(reads[0], MIN_READ_BYTES);
  assert.ok(p.connection.readSize > MIN_READ_BYTES);
  await p.connection.write(new TextEncoder().encode("GET / HTTP/1.1\r\n\r\n"));
  assert.equal(p.connection.readSize, FIRST_READ_BYTES);
});

Deno.test("a view handed out stays intact when the next read changes the buffer's size", async () => {
  using p = await pair();
  await p.send(FIRST_READ_BYTES);
  const first = await p.connection.read();
  const copy = first!.slice();
  await p.send(100);
  await p.connection.read();
  assert.deepEqual(first, copy);
});
