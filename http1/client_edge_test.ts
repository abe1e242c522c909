import assert from "node:assert/strict";
import { answering, delay, hanging, type RawSocket, within, withRawServer } from "./testing.ts";

const GET = { method: "GET", headers: {} };

Deno.test("a connection: close answer is read and its connection not pooled", async () => {
  const { script, closed } = hanging(
    "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok",
  );
  await withRawServer(script, async (url, client) => {
    const response = await client.fetch(url, GET);
    assert.equal(await response.text(), "ok");
    assert.equal(client.idle, 0);
    assert.equal(await within(closed), true, "the client closed its end");
  });
});

Deno.test("a close-delimited body runs to the server's close, in parts", async () => {
  const script = async (socket: RawSocket) => {
    await socket.request();
    await socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\npart one, ");
    await delay(20);
    await socket.write("part two");
  };
  await withRawServer(script, async (url, client) => {
    const response = await client.fetch(url, GET);
    assert.equal(await response.text(), "part one, part two");
    assert.equal(client.idle, 0);
  });
});

Deno.test("interim 100 and 103 answers are skipped for the final one", async () => {
  const script = async (socket: RawSocket) => {
    await socket.request();
    await socket.write("HTTP/1.1 100 Continue\r\n\r\n");
    await delay(10);
    await socket.write(
      "HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\n" +
        "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nx-final: yes\r\n\r\nok",
    );
    await answering("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nagain")(socket);
  };
  await withRawServer(script, async (url, client, server) => {
    const response = await client.fetch(url, { method: "POST", headers: {}, body: "{}" });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("x-final"), "yes");
    assert.equal(response.headers.get("link"), null);
    assert.equal(await response.text(), "ok");
    assert.equal(client.idle, 1);
    assert.equal(await (await client.fetch(url, GET)).text(), "again");
    assert.equal(server.accepted, 1);
  });
});

Deno.test("a final head begun in the read after an interim one ends in the next read", async () => {
  // The first read holds the interim answer and the start of the final head, which must
  // outlive the second read into the same buffer.
  const script = async (socket: RawSocket) => {
    (socket.conn as Deno.TcpConn).setNoDelay(true);
    await socket.request();
    await socket.write("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nx-final: y");
    await delay(20);
    await socket.write("es\r\ncontent-length: 2\r\n\r\nok");
  };
  await withRawServer(script, async (url, client) => {
    const response = await client.fetch(url, { method: "POST", headers: {}, body: "{}" });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("x-final"), "yes");
    assert.equal(await response.text(), "ok");
  });
});

Deno.test("Keep-Alive: timeout=1 leaves no time to reuse: the connection is closed", async () => {
  const { script, closed } = hanging(
    "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nkeep-alive: timeout=1\r\n\r\nok",
  );
  await withRawServer(script, async (url, client) => {
    assert.equal(await (await client.fetch(url, GET)).text(), "ok");
    assert.equal(client.idle, 0);
    assert.equal(await within(closed), true);
  });
});

Deno.test("Keep-Alive: timeout=2 pools the connection for one second only", async () => {
  const answer = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nKeep-Alive: timeout=2, max=100\r\n\r\nok";
  await withRawServer(answering(answer), async (url, client, server) => {
    assert.equal(await (await client.fetch(url, GET)).text(), "ok");
    assert.equal(client.idle, 1);
    await delay(1100);
    assert.equal(await (await client.fetch(url, GET)).text(), "ok");
    assert.equal(server.accepted, 2, "the expired connection was not reused");
  });
});

Deno.test("HTTP/1.0 answers are pooled only with connection: keep-alive", async () => {
  const plain = "HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\nok";
  await withRawServer(answering(plain), async (url, client) => {
    assert.equal(await (await client.fetch(url, GET)).text(), "ok");
    assert.equal(client.idle, 0);
  });
  const kept = "HTTP/1.0 200 OK\r\ncontent-length: 2\r\nConnection: Keep-Alive\r\n\r\nok";
  await withRawServer(answering(kept), async (url, client) => {
    assert.equal(await (await client.fetch(url, GET)).text(), "ok");
    assert.equal(client.idle, 1);
  });
});

Deno.test("a response written one byte at a time is parsed across the reads", async () => {
  const answer = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nx-a: 1\r\n\r\n" +
    "3\r\nabc\r\n0\r\n\r\n";
  const script = async (socket: RawSocket) => {
    (socket.conn as Deno.TcpConn).setNoDelay(true);
    await socket.request();
    for (const byte of new TextEncoder().encode(answer)) {
      await socket.write(new Uint8Array([byte]));
      await delay(1);
    }
    await socket.request();
  };
  await withRawServer(script, async (url, client) => {
    const response = await client.fetch(url, GET);
    assert.equal(response.headers.get("x-a"), "1");
    assert.equal(await response.text(), "abc");
    assert.equal(client.idle, 1);
  });
});

Deno.test("chunk extensions and trailers are consumed, leaving the connection reusable", async () => {
  const answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\ncontent-length: 99\r\n\r\n" +
    "4;ext=1\r\ndata\r\nA\r\n0123456789\r\n0\r\nx-trailer: t\r\n\r\n";
  await withRawServer(answering(answer), async (url, client, server) => {
    for (let i = 0; i < 3; i++) {
      assert.equal(await (await client.fetch(url, GET)).text(), "data0123456789");
    }
    assert.equal(client.idle, 1);
    assert.equal(server.accepted, 1, "chunked wins over content-length; all on one connection");
  });
});

Deno.test("a 304 has no body whatever its headers say", async () => {
  const answer = 'HTTP/1.1 304 Not Modified\r\ncontent-length: 50\r\netag: "x"\r\n\r\n';
  await withRawServer(answering(answer), async (url, client) => {
    const response = await client.fetch(url, GET);
    assert.equal(response.status, 304);
    assert.equal(response.body, null);
    assert.equal(client.idle, 1);
  });
});

Deno.test("bytes past the end of a body make the connection unusable, not the next answer", async () => {
  const answer = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n\r\n";
  await withRawServer(answering(answer), async (url, client) => {
    assert.equal(await (await client.fetch(url, GET)).text(), "ok");
    assert.equal(client.idle, 0);
  });
});

Deno.test("a content-length of zero written as 00 ends the body without reading on", async () => {
  const answer = "HTTP/1.1 200 OK\r\ncontent-length: 00\r\n\r\n";
  await withRawServer(answering(answer), async (url, client) => {
    const response = await client.fetch(url, GET);
    assert.equal(await within(response.text()), "");
    assert.equal(client.idle, 1);
  });
});

Deno.test("a chunked body truncated by the server's close errors the body read", async () => {
  const script = async (socket: RawSocket) => {
    await socket.request();
    await socket.write(
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\na\r\nhel",
    );
  };
  await withRawServer(script, async (url, client) => {
    const response = await client.fetch(url, GET);
    await assert.rejects(response.text(), /closed the connection before the body ended/);
    assert.equal(client.idle, 0);
  });
});

Deno.test("a content-length body truncated by the server's close errors the body read", async () => {
  const script = async (socket: RawSocket) => {
    await socket.request();
    await socket.write("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhello");
  };
  await withRawServer(script, async (url, client) => {
    const response = await client.fetch(url, GET);
    await assert.rejects(response.text(), /closed the connection before the body ended/);
  });
});

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return await new Response(stream).bytes();
}

Deno.test("a gzip body is decoded, framed by length or by chunks", async () => {
  const text = '{"message":"h\u00e9llo"}'.repeat(50);
  const packed = await gzip(text);
  const head = (framing: string) =>
    new TextEncoder().encode(`HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\n${framing}\r\n\r\n`);
  const byLength = new Uint8Array([...head(`content-length: ${packed.length}`), ...packed]);
  await withRawServer(answering(byLength), async (url, client) => {
    assert.equal(await (await client.fetch(url, GET)).text(), text);
    assert.equal(client.idle, 1);
  });
  const half = packed.length >> 1;
  const chunk = (bytes: Uint8Array) => [
    ...new TextEncoder().encode(`${bytes.length.toString(16)}\r\n`),
    ...bytes,
    13,
    10,
  ];
  const byChunks = new Uint8Array([
    ...head("transfer-encoding: chunked"),
    ...chunk(packed.subarray(0, half)),
    ...chunk(packed.subarray(half)),
    ...new TextEncoder().encode("0\r\n\r\n"),
  ]);
  await withRawServer(answering(byChunks), async (url, client) => {
    assert.equal(await (await client.fetch(url, GET)).text(), text);
    assert.equal(client.idle, 1);
  });
});

Deno.test("an unknown content-encoding rejects, and the connection is closed", async () => {
  const { script, closed } = hanging(
    "HTTP/1.1 200 OK\r\ncontent-encoding: br\r\ncontent-length: 3\r\n\r\nxyz",
  );
  await withRawServer(script, async (url, client) => {
    await assert.rejects(client.fetch(url, GET), /content-encoding "br"/);
    assert.equal(await within(closed), true);
    assert.equal(client.idle, 0);
  });
});

Deno.test("a malformed answer rejects: status line, content-length, oversize head", async () => {
  const answers: [string, RegExp][] = [
    ["SPDY/3 200 OK\r\n\r\n", /not an HTTP\/1\.x status line/],
    ["HTTP/1.1 200 OK\r\ncontent-length: 1e3\r\n\r\n", /malformed content-length/],
    ["HTTP/1.1 200 OK\r\ncontent-length: 2, 3\r\n\r\nok", /malformed content-length/],
    [`HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(70_000)}\r\n\r\n`, /over 65536 bytes/],
    ["HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n\r\n", /switched protocols/],
  ];
  for (const [answer, error] of answers) {
    await withRawServer(answering(answer), async (url, client) => {
      await assert.rejects(client.fetch(url, GET), error);
      assert.equal(client.idle, 0);
    });
  }
});

Deno.test("UTF-8 bytes in a response header reach the caller as fetch gives them", async () => {
  const head = new TextEncoder().encode(
    "HTTP/1.1 200 OK\r\ncontent-length: 0\r\nx-title: a\u2014b\r\n",
  );
  const answer = new Uint8Array([...head, 13, 10]);
  await withRawServer(answering(answer), async (url, client) => {
    const response = await client.fetch(url, GET);
    const value = response.headers.get("x-title") ?? "";
    const bytes = Uint8Array.from(value, (c) => c.charCodeAt(0));
    assert.equal(new TextDecoder().decode(bytes), "a\u2014b");
  });
});
