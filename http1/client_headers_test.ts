import assert from "node:assert/strict";
import { createHttp1Client } from "./client.ts";
import { type RawRequest, type RawSocket, withRawServer } from "./testing.ts";

Deno.test("a header value with a line break is refused before anything is sent", async () => {
  const client = createHttp1Client();
  try {
    for (const value of ["sk-secret\r\nx-injected: 1", "sk-secret\n", "a\0b", "snow ☃"]) {
      await assert.rejects(
        client.fetch("http://127.0.0.1:9/", { method: "POST", headers: { "x-api-key": value } }),
        (error: Error) => {
          assert.ok(error instanceof TypeError);
          assert.match(error.message, /"x-api-key" has an invalid name or value/);
          assert.ok(!error.message.includes("sk-secret"), "the value is never quoted");
          return true;
        },
      );
    }
    await assert.rejects(
      client.fetch("http://127.0.0.1:9/", { method: "GET", headers: { "bad name": "v" } }),
      TypeError,
    );
  } finally {
    client.close();
  }
});

Deno.test("header names go out lowercase; Latin-1 values as single bytes; accept-encoding kept", async () => {
  const seen = Promise.withResolvers<RawRequest>();
  const script = async (socket: RawSocket) => {
    const request = await socket.request();
    if (request) seen.resolve(request);
    await socket.write("HTTP/1.1 204 No Content\r\n\r\n");
  };
  await withRawServer(script, async (url, client) => {
    const response = await client.fetch(url, {
      method: "POST",
      headers: { "X-Custom": "caf\u00e9", "Accept-Encoding": "gzip", Host: "ignored" },
      body: "{}",
    });
    assert.equal(response.status, 204);
    const request = await seen.promise;
    assert.match(request.head, /\r\nx-custom: /);
    assert.match(request.head, /\r\naccept-encoding: gzip\r\n/);
    assert.ok(!/ignored/.test(request.head), "the client writes its own host");
    assert.ok(!/identity/.test(request.head));
    // One byte 0xE9, as fetch sends it (the test server decodes UTF-8, so the lone byte shows
    // as U+FFFD; UTF-8 "é" would have shown as "é").
    assert.equal(request.headers.get("x-custom"), "caf\ufffd");
  });
});
