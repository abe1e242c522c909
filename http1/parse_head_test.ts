import assert from "node:assert/strict";
import { headEnd, MAX_HEAD_BYTES, parseResponseHead } from "./parse_head.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const parse = (text: string) => parseResponseHead(bytes(text));

Deno.test("a 200 head gives version, status, reason, headers and its own length", () => {
  const text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n";
  const head = parseResponseHead(bytes(text + "{}"));
  assert.ok(head);
  assert.equal(head.version, "1.1");
  assert.equal(head.status, 200);
  assert.equal(head.statusText, "OK");
  assert.equal(head.headers.get("content-type"), "application/json");
  assert.equal(head.headers.get("content-length"), "2");
  assert.equal(head.length, text.length);
});

Deno.test("an HTTP/1.0 status line parses as version 1.0", () => {
  const head = parse("HTTP/1.0 404 Not Found\r\n\r\n");
  assert.equal(head?.version, "1.0");
  assert.equal(head?.status, 404);
  assert.equal(head?.statusText, "Not Found");
});

Deno.test("a reason phrase may be missing, empty or contain spaces", () => {
  assert.equal(parse("HTTP/1.1 204\r\n\r\n")?.statusText, "");
  assert.equal(parse("HTTP/1.1 204 \r\n\r\n")?.statusText, "");
  assert.equal(
    parse("HTTP/1.1 503 Service  Unavailable\r\n\r\n")?.statusText,
    "Service  Unavailable",
  );
});

Deno.test("repeated headers are all kept, in order", () => {
  const head = parse(
    "HTTP/1.1 200 OK\r\nX-A: 1\r\nSet-Cookie: a=1\r\nX-A: 2\r\nSet-Cookie: b=2\r\n\r\n",
  );
  assert.equal(head?.headers.get("x-a"), "1, 2");
  assert.equal(head?.headers.get("set-cookie"), "a=1, b=2");
});

Deno.test("header names are found whatever their case; an absent one is null", () => {
  const head = parse("HTTP/1.1 200 OK\r\nContent-TYPE: text/plain\r\nX-Value: Mixed Case\r\n\r\n");
  assert.equal(head?.headers.get("content-type"), "text/plain");
  assert.equal(head?.headers.get("CONTENT-TYPE"), "text/plain");
  assert.equal(head?.headers.get("x-value"), "Mixed Case");
  assert.equal(head?.headers.get("content"), null);
  assert.equal(head?.headers.get("type"), null);
});

Deno.test("header names and values lose surrounding whitespace; values keep inner colons", () => {
  const head = parse("HTTP/1.1 200 OK\r\nLocation:   http://x:1/a  \r\nX-Empty:\r\n\r\n");
  assert.equal(head?.headers.get("location"), "http://x:1/a");
  assert.equal(head?.headers.get("x-empty"), "");
});

Deno.test("bare LF line ends are accepted", () => {
  const text = "HTTP/1.1 200 OK\nContent-Length: 5\nX-B: b\n\n";
  const head = parse(text + "hello");
  assert.equal(head?.status, 200);
  assert.equal(head?.headers.get("content-length"), "5");
  assert.equal(head?.headers.get("x-b"), "b");
  assert.equal(head?.length, text.length);
});

Deno.test("header bytes are kept as Latin-1 code units, as fetch does (UTF-8 is not mangled)", () => {
  // "—" is E2 80 94 in UTF-8; 0x80 and 0x94 are not ByteString-safe under windows-1252.
  const raw = new Uint8Array([
    ...bytes("HTTP/1.1 200 \u00e7a va\r\nX-Title: a"),
    0xe2,
    0x80,
    0x94,
    ...bytes("b\r\n\r\n"),
  ]);
  const head = parseResponseHead(raw);
  const value = head?.headers.get("x-title") ?? "";
  assert.deepEqual([...value].map((c) => c.charCodeAt(0)), [0x61, 0xe2, 0x80, 0x94, 0x62]);
  assert.equal(new TextDecoder().decode(Uint8Array.from(value, (c) => c.charCodeAt(0))), "a—b");
  assert.equal(head?.statusText, "\u00c3\u00a7a va");
});

Deno.test("an incomplete head gives null, at every prefix", () => {
  const text = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
  for (let n = 0; n < text.length; n++) {
    assert.equal(parse(text.slice(0, n)), null, `prefix of ${n} bytes`);
  }
  assert.equal(parse(text)?.length, text.length);
});

Deno.test("headEnd finds the first blank line with CRLF or bare LF, or -1", () => {
  assert.equal(headEnd(bytes("a\r\n\r\nb\r\n\r\n")), 5);
  assert.equal(headEnd(bytes("a\n\nb")), 3);
  assert.equal(headEnd(bytes("a\r\n\r")), -1);
  assert.equal(headEnd(bytes("")), -1);
});

Deno.test("a head over MAX_HEAD_BYTES throws, whether or not its end has arrived", () => {
  const big = "HTTP/1.1 200 OK\r\nX-Big: " + "a".repeat(MAX_HEAD_BYTES) + "\r\n";
  assert.throws(() => parse(big), /over 65536 bytes/);
  assert.throws(() => parse(big + "\r\n"), /over 65536 bytes/);
  // Just under the limit, and still incomplete, is not an error yet.
  assert.equal(parse("HTTP/1.1 200 OK\r\nX: " + "a".repeat(MAX_HEAD_BYTES - 30)), null);
});

Deno.test("a malformed status line throws", () => {
  for (
    const line of [
      "HTTP/2 200 OK",
      "HTTP/1.1 20 OK",
      "HTTP/1.1 2000 OK",
      "HTTP/1.1200 OK",
      "http/1.1 200 OK",
      "ICY 200 OK",
      "",
    ]
  ) {
    assert.throws(() => parse(`${line}\r\nX: y\r\n\r\n`), /not an HTTP\/1\.x status line/, line);
  }
});

Deno.test("a header line without a name or colon throws", () => {
  assert.throws(() => parse("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n"), /malformed header line/);
  assert.throws(() => parse("HTTP/1.1 200 OK\r\n: no name\r\n\r\n"), /malformed header line/);
});

Deno.test("a header name with spaces in it or before its colon throws", () => {
  assert.throws(() => parse("HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n"), /malformed header line/);
  // RFC 9112 §5.1: no whitespace between the field name and the colon.
  assert.throws(() => parse("HTTP/1.1 200 OK\r\nX-A : x\r\n\r\n"), /malformed header line/);
});

Deno.test("a header value with a NUL or a stray CR throws", () => {
  assert.throws(() => parse("HTTP/1.1 200 OK\r\nX-A: a\0b\r\n\r\n"), /malformed header line/);
  assert.throws(() => parse("HTTP/1.1 200 OK\r\nX-A: a\rb\r\n\r\n"), /malformed header line/);
  // A second CR before the line end is a stray one too, and the message names its line.
  assert.throws(() => parse("HTTP/1.1 200 OK\r\nA: 1\r\r\n\r\n"), /malformed header line: "A: 1/);
});

Deno.test("a value keeps a trailing Latin-1 no-break space: only spaces and tabs are trimmed", () => {
  const head = parseResponseHead(
    new Uint8Array([...bytes("HTTP/1.1 200 OK\r\nX-A: \ta"), 0xa0, ...bytes(" \r\n\r\n")]),
  );
  assert.equal(head?.headers.get("x-a"), "a\u00a0");
});

Deno.test("a folded header line throws, with a space or a tab", () => {
  for (const fold of [" ", "\t"]) {
    assert.throws(
      () => parse(`HTTP/1.1 200 OK\r\nX-Long: a\r\n${fold}b\r\n\r\n`),
      /folds a header line/,
    );
  }
});
