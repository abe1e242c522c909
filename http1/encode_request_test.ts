import assert from "node:assert/strict";
import { encodeRequest } from "./encode_request.ts";
import { targetOf } from "./target.ts";

const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);
const target = targetOf("http://upstream.test:8080/v1/messages?beta=true");

Deno.test("encodeRequest writes the request line, host, lowercase headers and the body", () => {
  const bytes = encodeRequest(target, {
    method: "POST",
    headers: { "X-Api-Key": " k ", "Content-Type": "application/json" },
    body: '{"a":"é"}',
  });
  assert.equal(
    latin1(bytes),
    "POST /v1/messages?beta=true HTTP/1.1\r\nhost: upstream.test:8080\r\n" +
      "x-api-key: k\r\ncontent-type: application/json\r\naccept-encoding: identity\r\n" +
      "content-length: 10\r\n\r\n" + latin1(new TextEncoder().encode('{"a":"é"}')),
  );
});

Deno.test("encodeRequest drops the headers it writes itself and keeps a given accept-encoding", () => {
  const headers = new Headers({
    host: "elsewhere",
    "content-length": "99",
    connection: "close",
    "transfer-encoding": "chunked",
    "keep-alive": "timeout=5",
    "accept-encoding": "gzip",
  });
  const text = latin1(encodeRequest(target, { method: "GET", headers }));
  assert.equal(
    text,
    "GET /v1/messages?beta=true HTTP/1.1\r\nhost: upstream.test:8080\r\n" +
      "accept-encoding: gzip\r\n\r\n",
  );
});

Deno.test("encodeRequest sends content-length 0 for a POST without a body", () => {
  const text = latin1(encodeRequest(target, { method: "POST", headers: {} }));
  assert.ok(text.endsWith("content-length: 0\r\n\r\n"));
});

Deno.test("encodeRequest writes Latin-1 header values as single bytes", () => {
  const bytes = encodeRequest(target, { method: "GET", headers: { "x-name": "caf\u00e9" } });
  const at = latin1(bytes).indexOf("x-name: ") + "x-name: ".length;
  assert.deepEqual([...bytes.subarray(at, at + 4)], [0x63, 0x61, 0x66, 0xe9]);
});

Deno.test("encodeRequest encodes bodies larger than its scratch buffer whole", () => {
  const body = "x".repeat(100 * 1024);
  const bytes = encodeRequest(target, { method: "POST", headers: {}, body });
  assert.ok(latin1(bytes.subarray(0, 200)).includes(`content-length: ${body.length}\r\n`));
  assert.equal(new TextDecoder().decode(bytes.subarray(bytes.length - body.length)), body);
});

Deno.test("encodeRequest refuses a header with a line break or a wide character", () => {
  for (const value of ["a\r\nb", "a\0b", "snow \u2603"]) {
    assert.throws(
      () => encodeRequest(target, { method: "GET", headers: { "x-api-key": value } }),
      TypeError,
    );
  }
  assert.throws(
    () => encodeRequest(target, { method: "GET", headers: { "bad name": "v" } }),
    TypeError,
  );
});
