import assert from "node:assert/strict";
import { createHttp1Client, type Http1Client } from "./client.ts";
import { delay } from "./testing.ts";
import { bodyReaderOf } from "./response.ts";

type Handler = (request: Request, remotePort: number) => Response | Promise<Response>;

/** A `Deno.serve` server on a free loopback port and a fresh client, both closed after `body`. */
async function withServer(
  handler: Handler,
  body: (url: string, client: Http1Client, ports: number[]) => Promise<void>,
): Promise<void> {
  const ports: number[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req, info) => {
    ports.push(info.remoteAddr.port);
    return handler(req, info.remoteAddr.port);
  });
  const client = createHttp1Client();
  try {
    await body(`http://127.0.0.1:${server.addr.port}`, client, ports);
  } finally {
    client.close();
    await server.shutdown();
  }
}

/** The request as the server saw it. */
interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The request as the server saw it, as JSON. */
async function echo(request: Request): Promise<Response> {
  const url = new URL(request.url);
  return Response.json({
    method: request.method,
    path: url.pathname + url.search,
    headers: Object.fromEntries(request.headers),
    body: await request.text(),
  });
}

Deno.test("a JSON body framed by content-length", async () => {
  const value = { ok: true, text: "h\u00e9llo" };
  const length = new TextEncoder().encode(JSON.stringify(value)).length;
  await withServer(() => Response.json(value), async (url, client) => {
    const response = await client.fetch(`${url}/v1/models`, { method: "GET", headers: {} });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal(response.headers.get("content-length"), String(length));
    assert.deepEqual(await response.json(), value);
  });
});

Deno.test("a streamed body arrives chunk by chunk, before the server has sent the rest", async () => {
  const firstRead = Promise.withResolvers<void>();
  const handler = () =>
    new Response(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode("data: 1\n\n"));
          // The rest is sent only once the client has read the first chunk.
          await firstRead.promise;
          await delay(20);
          controller.enqueue(new TextEncoder().encode("data: 2\n\n"));
          await delay(20);
          controller.enqueue(new TextEncoder().encode("data: [DONE]\n\n"));
          controller.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  await withServer(handler, async (url, client) => {
    const response = await client.fetch(`${url}/stream`, { method: "POST", headers: {} });
    assert.equal(response.headers.get("transfer-encoding"), "chunked");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    assert.deepEqual(await reader.read(), { done: false, value: "data: 1\n\n" });
    assert.equal(client.idle, 0, "not back in the pool while its body streams");
    firstRead.resolve();
    let rest = "";
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += read.value;
    assert.equal(rest, "data: 2\n\ndata: [DONE]\n\n");
    assert.equal(client.idle, 1);
  });
});

Deno.test("a streamed body read without a stream: its chunks, then the connection pooled", async () => {
  const handler = () =>
    new Response(
      new ReadableStream({
        async start(controller) {
          for (const text of ["data: 1\n\n", "data: 2\n\n"]) {
            controller.enqueue(new TextEncoder().encode(text));
            await delay(10);
          }
          controller.close();
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
  await withServer(handler, async (url, client) => {
    const response = await client.fetch(`${url}/stream`, { method: "POST", headers: {} });
    const reader = bodyReaderOf(response)!;
    assert.equal(response.bodyUsed, true, "the body is taken");
    const chunks: string[] = [];
    for (let chunk = await reader.read(); chunk !== null; chunk = await reader.read()) {
      chunks.push(new TextDecoder().decode(chunk));
    }
    assert.deepEqual(chunks, ["data: 1\n\n", "data: 2\n\n"]);
    assert.equal(client.idle, 1);
    assert.equal(await reader.read(), null, "an ended reader stays ended");
  });
});

Deno.test("keep-alive: a body that came whole with its head frees the connection at once", async () => {
  await withServer(() => new Response("pong"), async (url, client, ports) => {
    const first = await client.fetch(`${url}/a`, { method: "GET", headers: {} });
    assert.equal(client.idle, 1, "back in the pool before its body is read");
    assert.equal(await first.text(), "pong");
    const second = await client.fetch(`${url}/b`, { method: "GET", headers: {} });
    assert.equal(await second.text(), "pong");
    assert.equal(client.idle, 1);
    assert.equal(ports.length, 2);
    assert.equal(ports[0], ports[1], "both requests came over one connection");
  });
});

Deno.test("concurrent requests open separate connections, and all go back to the pool", async () => {
  await withServer(async () => {
    await delay(20);
    return new Response("x");
  }, async (url, client, ports) => {
    const responses = await Promise.all(
      [1, 2, 3].map(() => client.fetch(url, { method: "GET", headers: {} })),
    );
    assert.deepEqual(await Promise.all(responses.map((r) => r.text())), ["x", "x", "x"]);
    assert.equal(new Set(ports).size, 3);
    assert.equal(client.idle, 3);
  });
});

Deno.test("request line, host, headers and a multi-byte body arrive intact", async () => {
  await withServer(echo, async (url, client) => {
    const body = JSON.stringify({ prompt: "h\u00e9llo \u2713 \u{1F389}" });
    const response = await client.fetch(`${url}/v1/chat?x=1&y=%20`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "sk-1", "X-Mixed": "A b" },
      body,
    });
    const seen = await response.json() as Seen;
    assert.equal(seen.method, "POST");
    assert.equal(seen.path, "/v1/chat?x=1&y=%20");
    assert.equal(seen.headers.host, new URL(url).host);
    assert.equal(seen.headers["content-type"], "application/json");
    assert.equal(seen.headers["x-api-key"], "sk-1");
    assert.equal(seen.headers["x-mixed"], "A b");
    assert.equal(seen.headers["accept-encoding"], "identity");
    assert.equal(seen.headers["content-length"], String(new TextEncoder().encode(body).length));
    assert.notEqual(seen.headers["content-length"], String(body.length));
    assert.equal(seen.body, body);
  });
});

Deno.test("string bodies of every size arrive whole, each after the others", async () => {
  await withServer(echo, async (url, client) => {
    // Around the size where small bodies stop sharing one encoding buffer, and a small one after
    // a large one (no bytes of the earlier body may leak into it).
    for (const size of [21_845, 21_846, 200_000, 3]) {
      const body = "\u00e9".repeat(size);
      const response = await client.fetch(url, { method: "POST", headers: {}, body });
      const seen = await response.json() as Seen;
      assert.equal(seen.body, body);
      assert.equal(seen.headers["content-length"], String(size * 2));
    }
  });
});

Deno.test("a byte body, a Headers object, and headers the client owns are not duplicated", async () => {
  await withServer(echo, async (url, client) => {
    const headers = new Headers({ "accept-encoding": "gzip", host: "evil", connection: "close" });
    const response = await client.fetch(url, {
      method: "PUT",
      headers,
      body: new Uint8Array([104, 105]),
    });
    const seen = await response.json() as Seen;
    assert.equal(seen.method, "PUT");
    assert.equal(seen.headers.host, new URL(url).host);
    assert.equal(seen.headers["accept-encoding"], "gzip");
    assert.equal(seen.headers.connection, undefined);
    assert.equal(seen.headers["content-length"], "2");
    assert.equal(seen.body, "hi");
    assert.equal(client.idle, 1);
  });
});

Deno.test("a GET has no content-length; a POST without a body sends content-length: 0", async () => {
  await withServer(echo, async (url, client) => {
    const get = await (await client.fetch(url, { method: "GET", headers: {} })).json() as Seen;
    assert.equal(get.headers["content-length"], undefined);
    const post = await (await client.fetch(url, { method: "POST", headers: {} })).json() as Seen;
    assert.equal(post.headers["content-length"], "0");
    assert.equal(post.body, "");
  });
});

Deno.test("status, status text and response headers, repeated ones included", async () => {
  const handler = () => {
    const headers = new Headers({ "x-request-id": "req_1", location: "/v1/x" });
    headers.append("set-cookie", "a=1");
    headers.append("set-cookie", "b=2");
    return new Response("made", { status: 201, headers });
  };
  await withServer(handler, async (url, client) => {
    const response = await client.fetch(url, { method: "POST", headers: {}, body: "{}" });
    assert.equal(response.status, 201);
    assert.equal(response.statusText, "Created");
    assert.equal(response.ok, true);
    assert.equal(response.headers.get("x-request-id"), "req_1");
    assert.equal(response.headers.get("location"), "/v1/x");
    assert.equal(response.headers.get("set-cookie"), "a=1, b=2");
    assert.equal(await response.text(), "made");
  });
});

Deno.test("a 204 has a null body and its connection goes straight back to the pool", async () => {
  await withServer(() => new Response(null, { status: 204 }), async (url, client) => {
    const response = await client.fetch(url, { method: "DELETE", headers: {} });
    assert.equal(response.status, 204);
    assert.equal(response.body, null);
    assert.equal(client.idle, 1);
  });
});

Deno.test("a HEAD answer has no body even with a content-length", async () => {
  await withServer(() => new Response("twelve bytes"), async (url, client) => {
    const response = await client.fetch(url, { method: "HEAD", headers: {} });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-length"), "12");
    assert.equal(response.body, null);
    assert.equal(client.idle, 1);
    const next = await client.fetch(url, { method: "GET", headers: {} });
    assert.equal(await next.text(), "twelve bytes", "the connection was not left mid-body");
  });
});

Deno.test("4xx and 5xx bodies are readable, and their connections reused", async () => {
  const handler = (request: Request) =>
    new URL(request.url).pathname === "/missing"
      ? Response.json({ error: { type: "not_found" } }, { status: 404 })
      : new Response("upstream broke", { status: 503 });
  await withServer(handler, async (url, client, ports) => {
    const missing = await client.fetch(`${url}/missing`, { method: "GET", headers: {} });
    assert.equal(missing.status, 404);
    assert.equal(missing.statusText, "Not Found");
    assert.deepEqual(await missing.json(), { error: { type: "not_found" } });
    const broken = await client.fetch(`${url}/broken`, { method: "GET", headers: {} });
    assert.equal(broken.status, 503);
    assert.equal(broken.ok, false);
    assert.equal(await broken.text(), "upstream broke");
    assert.equal(ports[0], ports[1]);
  });
});

Deno.test("a large body split across many reads arrives whole", async () => {
  const big = "0123456789abcdef".repeat(64 * 1024);
  await withServer(() => new Response(big), async (url, client) => {
    const response = await client.fetch(url, { method: "GET", headers: {} });
    assert.equal(response.headers.get("content-length"), String(big.length));
    assert.equal(await response.text(), big);
    assert.equal(client.idle, 1);
  });
});
