import assert from "node:assert/strict";
import { Hono } from "hono";
import { GatewayError } from "../core/errors.ts";
import type { AppEnv } from "./env.ts";
import { jsonBody, KEEP_BYTES_FROM, readJsonBody } from "./body.ts";

/** An app whose handler reports what `c.req.json()` gives, twice. */
function app(limit: number) {
  const hono = new Hono<AppEnv>();
  hono.onError((error) =>
    error instanceof GatewayError
      ? Response.json({ status: error.status, message: error.message }, { status: error.status })
      : Response.json({ unexpected: String(error) }, { status: 500 })
  );
  hono.use(jsonBody(limit));
  hono.post("/", async (c) => {
    const first = await c.req.json();
    const second = await c.req.json();
    return c.json({ body: first, same: first === second });
  });
  return hono;
}

const JSON_TYPE = { "content-type": "application/json" };

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://gatehouse.test/", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

Deno.test("jsonBody: the body is parsed once and every c.req.json() call gets that value", async () => {
  const response = await app(1024).request(post('{"model":"m","n":[1,2]}'));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { body: { model: "m", n: [1, 2] }, same: true });
});

Deno.test("jsonBody: a Content-Length over the limit is refused before the body is read", async () => {
  const response = await app(10).request(post("{}", { "content-length": "11" }));
  assert.equal(response.status, 413);
  assert.match((await response.json()).message, /limit of 10 bytes \(GATEHOUSE_MAX_BODY\)/);
});

Deno.test("jsonBody: a chunked body is counted while read and refused past the limit", async () => {
  const chunks = ['{"a":"', "x".repeat(8), '"}'];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(next));
    },
  });
  const response = await app(12).request(post(body));
  assert.equal(response.status, 413);
});

Deno.test("jsonBody: malformed JSON, a non-object and a wrong Content-Type are 400s that say so", async () => {
  const cases: [Request, RegExp][] = [
    [post("{"), /not valid JSON/],
    [post("[1]"), /must be a JSON object/],
    [post("{}", { "content-type": "text/plain" }), /got "text\/plain"/],
    [post(""), /has no body: send a JSON object/],
    [new Request("http://gatehouse.test/", { method: "POST", headers: JSON_TYPE }), /has no body/],
  ];
  for (const [request, message] of cases) {
    const response = await app(1024).request(request);
    assert.equal(response.status, 400);
    assert.match((await response.json()).message, message);
  }
});

Deno.test("jsonBody: behind Deno.serve (its own body path) the body parses and bad JSON is a 400", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    app(1024).fetch,
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}/`;
    const send = (body: string) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    const ok = await send('{"model":"m","text":"caf\u00e9"}');
    assert.deepEqual(await ok.json(), { body: { model: "m", text: "caf\u00e9" }, same: true });
    // Some clients write a UTF-8 byte order mark first; it is not part of the JSON.
    const bom = await send('\ufeff{"model":"m"}');
    assert.deepEqual(await bom.json(), { body: { model: "m" }, same: true });
    const cases: [string, RegExp][] = [["{", /not valid JSON/], ["", /has no body/]];
    for (const [bad, message] of cases) {
      const response = await send(bad);
      assert.equal(response.status, 400);
      assert.match((await response.json()).message, message);
    }
  } finally {
    await server.shutdown();
  }
});

Deno.test("jsonBody: behind Deno.serve, bodies from 1 kB to 300 kB parse whole", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    app(1024 * 1024).fetch,
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}/`;
    // Multi-byte characters straddle the runtime's reads of the larger ones.
    for (const size of [1_000, 4_000, 60_000, 70_000, 300_000]) {
      const text = "café ☕ ".repeat(Math.ceil(size / 9)).slice(0, size);
      const body = JSON.stringify({ model: "m", text });
      const response = await fetch(url, { method: "POST", headers: JSON_TYPE, body });
      assert.equal(response.status, 200, `${size}`);
      assert.deepEqual(await response.json(), { body: { model: "m", text }, same: true });
    }
    const over = await fetch(url, {
      method: "POST",
      headers: JSON_TYPE,
      body: JSON.stringify({ text: "x".repeat(1024 * 1024) }),
    });
    assert.equal(over.status, 413);
    await over.body?.cancel();
  } finally {
    await server.shutdown();
  }
});

Deno.test("readJsonBody: a large body keeps its bytes only when its text is exactly their UTF-8", async () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const big = (content: string) =>
    `{"model":"m","messages":[{"role":"user","content":${JSON.stringify(content)}}]}`;
  const read = (bytes: Uint8Array) =>
    readJsonBody(post(bytes as Uint8Array<ArrayBuffer>), 1 << 20, new TextDecoder());
  const large = encode(big("é→🚀 ".repeat(KEEP_BYTES_FROM / 4)));
  const kept = await read(large);
  assert.deepEqual(kept.utf8, large);
  assert.equal(new TextDecoder().decode(kept.utf8), kept.text);
  // Below the size, the text alone is kept.
  assert.equal((await read(encode(big("é")))).utf8, undefined);
  // A byte order mark is dropped by the decoder, so the bytes are not the text's.
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...large]);
  const withBom = await read(bom);
  assert.equal(withBom.utf8, undefined);
  assert.equal(withBom.text, kept.text);
  // A malformed sequence is decoded as U+FFFD: the bytes are not the text's either.
  const malformed = encode(big("x".repeat(KEEP_BYTES_FROM)));
  malformed[malformed.length - 10] = 0xff;
  const replaced = await read(malformed);
  assert.equal(replaced.utf8, undefined);
  assert.ok(replaced.text.includes("\uFFFD"));
  // The client's own U+FFFD cannot be told from a replaced byte: not kept either.
  assert.equal((await read(encode(big("\uFFFD".repeat(KEEP_BYTES_FROM))))).utf8, undefined);
});

Deno.test("readJsonBody: bytes are kept from KEEP_BYTES_FROM on, and only the body's own", async () => {
  const sized = (size: number) => {
    const text = `{"model":"m","x":"${"a".repeat(size - 20)}"}`;
    assert.equal(text.length, size);
    return text;
  };
  const read = (body: BodyInit) => readJsonBody(post(body), 1 << 20, new TextDecoder());
  assert.equal((await read(sized(KEEP_BYTES_FROM - 1))).utf8, undefined);
  assert.equal((await read(sized(KEEP_BYTES_FROM))).utf8?.length, KEEP_BYTES_FROM);
  // A body read as a view of a larger buffer (Deno.serve's read of the request head and body)
  // is copied: the kept bytes hold no more than the body.
  const text = sized(KEEP_BYTES_FROM + 100);
  const buffer = new Uint8Array(64 * 1024);
  buffer.set(new TextEncoder().encode(text), 300);
  const view = buffer.subarray(300, 300 + text.length);
  const kept = await read(
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(view);
        controller.close();
      },
    }),
  );
  assert.equal(kept.utf8?.buffer.byteLength, text.length);
  assert.equal(new TextDecoder().decode(kept.utf8), text);
});

Deno.test("jsonBody: a large body's bytes are on the context for the handler, a small one's not", async () => {
  const hono = new Hono<AppEnv>();
  hono.use(jsonBody(1 << 20));
  hono.post("/", (c) => c.json({ kept: c.get("bodyUtf8")?.length ?? null }));
  const large = `{"x":"${"é".repeat(KEEP_BYTES_FROM)}"}`;
  const bytes = new TextEncoder().encode(large).length;
  assert.deepEqual(await (await hono.request(post(large))).json(), { kept: bytes });
  assert.deepEqual(await (await hono.request(post('{"x":"é"}'))).json(), { kept: null });
});
