import assert from "node:assert/strict";
import { streamReader } from "../core/chunk_reader.ts";
import { contentCoding, decode, decoderFor, keepAliveMs } from "./body_framing.ts";
import { parseResponseHead, type ResponseHead } from "./parse_head.ts";

const head = (text: string): ResponseHead =>
  parseResponseHead(new TextEncoder().encode(`${text}\r\n\r\n`))!;
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array[]) => data.map((d) => new TextDecoder().decode(d)).join("");

Deno.test("decoderFor finds no body after HEAD, 204, 304 and a zero content-length", () => {
  assert.equal(decoderFor(head("HTTP/1.1 200 OK\r\ncontent-length: 5"), "HEAD"), null);
  assert.equal(decoderFor(head("HTTP/1.1 204 No Content"), "GET"), null);
  assert.equal(decoderFor(head("HTTP/1.1 304 Not Modified"), "GET"), null);
  assert.equal(decoderFor(head("HTTP/1.1 200 OK\r\ncontent-length: 0"), "GET"), null);
});

Deno.test("decoderFor reads chunked before content-length, and a length exactly", () => {
  const chunked = decoderFor(
    head("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-length: 2"),
    "POST",
  )!;
  const first = chunked.push(bytes("3\r\nabc\r\n0\r\n\r\n"));
  assert.deepEqual([text(first.data), first.done], ["abc", true]);
  const sized = decoderFor(head("HTTP/1.1 200 OK\r\ncontent-length: 2"), "POST")!;
  const decoded = sized.push(bytes("abcd"));
  assert.deepEqual([text(decoded.data), decoded.done, text([decoded.rest])], ["ab", true, "cd"]);
});

Deno.test("decoderFor reads to the close without a length, and refuses a malformed one", () => {
  const open = decoderFor(head("HTTP/1.1 200 OK"), "GET")!;
  assert.equal(open.push(bytes("abc")).done, false);
  assert.equal(open.end(), true);
  assert.throws(
    () => decoderFor(head("HTTP/1.1 200 OK\r\ncontent-length: -1"), "GET"),
    /malformed content-length "-1"/,
  );
});

Deno.test("keepAliveMs keeps 1.1 unless closed, 1.0 only when asked, up to the server's hint", () => {
  assert.equal(keepAliveMs(head("HTTP/1.1 200 OK"), 30_000), 30_000);
  assert.equal(keepAliveMs(head("HTTP/1.1 200 OK\r\nconnection: Close"), 30_000), 0);
  assert.equal(keepAliveMs(head("HTTP/1.0 200 OK"), 30_000), 0);
  assert.equal(keepAliveMs(head("HTTP/1.0 200 OK\r\nconnection: keep-alive"), 30_000), 30_000);
  assert.equal(keepAliveMs(head("HTTP/1.1 200 OK\r\nkeep-alive: timeout=5"), 30_000), 4_000);
  assert.equal(keepAliveMs(head("HTTP/1.1 200 OK\r\nkeep-alive: timeout=60"), 30_000), 30_000);
});

Deno.test("contentCoding names the codings the gateway undoes and refuses the others", () => {
  assert.equal(contentCoding(head("HTTP/1.1 200 OK").headers), "identity");
  assert.equal(contentCoding(head("HTTP/1.1 200 OK\r\ncontent-encoding: GZIP").headers), "gzip");
  assert.equal(
    contentCoding(head("HTTP/1.1 200 OK\r\ncontent-encoding: deflate").headers),
    "deflate",
  );
  assert.throws(
    () => contentCoding(head("HTTP/1.1 200 OK\r\ncontent-encoding: br").headers),
    /content-encoding "br", which the gateway cannot decode/,
  );
});

Deno.test("decode undoes gzip", async () => {
  const zipped = new Blob([bytes("hello")]).stream().pipeThrough(new CompressionStream("gzip"));
  const plain = decode(streamReader(zipped), "x-gzip");
  assert.equal(await new Response(plain).text(), "hello");
});
