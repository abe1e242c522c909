import assert from "node:assert/strict";
import { bodyReaderOf, Http1Response } from "./response.ts";

const head = (status = 200) => ({
  status,
  statusText: "OK",
  headers: new Headers({ "content-type": "application/json" }),
});
const bytes = (text: string) => new TextEncoder().encode(text);

function streamOf(...parts: string[]): ReadableStream<Uint8Array<ArrayBuffer>> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(bytes(part));
      controller.close();
    },
  });
}

Deno.test("Http1Response: a body held whole is read as bytes, text or JSON, once", async () => {
  const response = new Http1Response(head(), bytes('{"a":"\u00e9"}'));
  assert.equal(response.ok, true);
  assert.equal(response.bodyUsed, false);
  assert.deepEqual(await response.json(), { a: "\u00e9" });
  assert.equal(response.bodyUsed, true);
  await assert.rejects(response.text(), TypeError);
});

Deno.test("Http1Response: a body held whole becomes a one-chunk stream when asked", async () => {
  const response = new Http1Response(head(), bytes("whole"));
  const body = response.body!;
  assert.equal(response.body, body, "the same stream on every access");
  assert.equal(await new Response(body).text(), "whole");
});

Deno.test("Http1Response: a streamed body is collected across its chunks", async () => {
  const response = new Http1Response(head(), streamOf("con", "cat", "\u2713"));
  assert.equal(await response.text(), "concat\u2713");
});

Deno.test("Http1Response: no body reads as empty; status decides ok", async () => {
  const response = new Http1Response(head(404), null);
  assert.equal(response.ok, false);
  assert.equal(response.body, null);
  assert.equal((await response.bytes()).length, 0);
});

Deno.test("Http1Response: a stream someone else holds cannot be read again", async () => {
  const response = new Http1Response(head(), streamOf("x"));
  const reader = response.body!.getReader();
  await assert.rejects(response.bytes(), TypeError);
  reader.releaseLock();
});

Deno.test("Http1Response: a reader hands out a body held whole once, and takes the body", async () => {
  const response = new Http1Response(head(), bytes("whole"));
  const reader = response.reader()!;
  assert.equal(new TextDecoder().decode((await reader.read())!), "whole");
  assert.equal(await reader.read(), null);
  assert.equal(response.bodyUsed, true);
  await assert.rejects(response.bytes(), TypeError);
  assert.equal(new Http1Response(head(204), null).reader(), null);
});

Deno.test("bodyReaderOf reads the runtime's own Response through its stream", async () => {
  const reader = bodyReaderOf(new Response(streamOf("a", "b")))!;
  const chunks: string[] = [];
  for (let chunk = await reader.read(); chunk !== null; chunk = await reader.read()) {
    chunks.push(new TextDecoder().decode(chunk));
  }
  assert.deepEqual(chunks, ["a", "b"]);
  assert.equal(bodyReaderOf(new Response(null)), null);
});

Deno.test("Http1Response.takeWhole takes a body that came whole, and only such a body", async () => {
  const whole = new Http1Response(
    { status: 200, statusText: "OK", headers: new Headers() },
    new TextEncoder().encode("{}") as Uint8Array<ArrayBuffer>,
  );
  assert.equal(new TextDecoder().decode(whole.takeWhole()!), "{}");
  assert.equal(whole.bodyUsed, true);
  assert.equal(whole.takeWhole(), null);
  const streamed = new Http1Response(
    { status: 200, statusText: "OK", headers: new Headers() },
    new Response("{}").body as ReadableStream<Uint8Array<ArrayBuffer>>,
  );
  assert.equal(streamed.takeWhole(), null);
  assert.equal(await streamed.text(), "{}");
});
