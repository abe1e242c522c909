import assert from "node:assert/strict";
import { concatBytes } from "../core/bytes.ts";
import {
  type BodyDecoder,
  chunkedDecoder,
  closeDelimitedDecoder,
  lengthDecoder,
} from "./body_decoder.ts";

const encoder = new TextEncoder();
const text = (parts: Uint8Array[]) => new TextDecoder().decode(concatBytes(parts));

/** Feeds `pieces` to `decoder` in turn, copying data out, until it is done; the body, whether
 * it is done, and what came after its end (the rest plus any pieces left unpushed). */
function feed(decoder: BodyDecoder, pieces: Uint8Array[]) {
  const body: Uint8Array[] = [];
  const after: Uint8Array[] = [];
  let done = false;
  for (const piece of pieces) {
    if (done) {
      after.push(piece);
      continue;
    }
    const decoded = decoder.push(piece);
    for (const data of decoded.data) body.push(data.slice());
    done = decoded.done;
    if (done) after.push(decoded.rest.slice());
    else assert.equal(decoded.rest.length, 0, "rest is empty before the end");
  }
  return { body: text(body), done, rest: text(after) };
}

const wire = (s: string) => [encoder.encode(s)];

/** A chunked body with extensions, uppercase hex, a multi-byte character and a trailer. */
const CHUNKED = "5;name=val\r\nhello\r\n" +
  "A\r\n, chunked \r\n" +
  '3;a=1;b="x"\r\n\u00e9!\r\n' +
  "0\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n";
const CHUNKED_BODY = "hello, chunked \u00e9!";

Deno.test("chunked: a whole body in one push, with extensions, uppercase hex and trailers", () => {
  assert.deepEqual(feed(chunkedDecoder(), wire(CHUNKED)), {
    body: CHUNKED_BODY,
    done: true,
    rest: "",
  });
});

Deno.test("chunked: one byte at a time gives the same body", () => {
  const all = encoder.encode(CHUNKED);
  const bytes = Array.from(all, (_, i) => all.subarray(i, i + 1));
  assert.deepEqual(feed(chunkedDecoder(), bytes), { body: CHUNKED_BODY, done: true, rest: "" });
});

Deno.test("chunked: every split into two pushes gives the same body and end", () => {
  const all = encoder.encode(CHUNKED + "NEXT");
  for (let at = 0; at <= all.length; at++) {
    const result = feed(chunkedDecoder(), [all.subarray(0, at), all.subarray(at)]);
    assert.equal(result.body, CHUNKED_BODY, `split at ${at}`);
    assert.equal(result.done, true, `split at ${at}`);
    assert.equal(result.rest, "NEXT", `split at ${at}`);
  }
});

Deno.test("chunked: plain hex sizes, as every stream sends them, at every split point", () => {
  const events = ['data: {"a":1}\n\n', "data: [DONE]\n\n", "x".repeat(0x1f)];
  const body = events.map((e) => `${e.length.toString(16)}\r\n${e}\r\n`).join("");
  const all = encoder.encode(body + "0\r\n\r\nNEXT");
  for (let at = 0; at <= all.length; at++) {
    const result = feed(chunkedDecoder(), [all.subarray(0, at), all.subarray(at)]);
    assert.deepEqual(result, { body: events.join(""), done: true, rest: "NEXT" }, `split at ${at}`);
  }
  // Twelve hex digits is the longest size taken; leading zeros count.
  assert.deepEqual(feed(chunkedDecoder(), wire("000000000003\r\nabc\r\n0\r\n\r\n")), {
    body: "abc",
    done: true,
    rest: "",
  });
});

Deno.test("chunked: bytes after the terminator come back as rest", () => {
  const result = feed(chunkedDecoder(), wire("3\r\nabc\r\n0\r\n\r\nHTTP/1.1 200 OK\r\n"));
  assert.deepEqual(result, { body: "abc", done: true, rest: "HTTP/1.1 200 OK\r\n" });
});

Deno.test("chunked: bare LF line ends and an empty body", () => {
  assert.deepEqual(feed(chunkedDecoder(), wire("2\nhi\n0\n\n")), {
    body: "hi",
    done: true,
    rest: "",
  });
  assert.deepEqual(feed(chunkedDecoder(), wire("0\r\n\r\n")), { body: "", done: true, rest: "" });
});

Deno.test("chunked: not done until the blank line after the last chunk", () => {
  const decoder = chunkedDecoder();
  assert.deepEqual(feed(decoder, wire("3\r\nabc\r\n0\r\nX-T: 1\r\n")), {
    body: "abc",
    done: false,
    rest: "",
  });
  assert.equal(decoder.end(), false, "EOF here truncates the body");
  assert.equal(decoder.push(encoder.encode("\r\n")).done, true);
  assert.equal(decoder.end(), true);
});

Deno.test("chunked: a malformed size throws", () => {
  for (const size of ["x", "-1", "0x5", "", "1 2", "1234567890abc"]) {
    assert.throws(
      () => chunkedDecoder().push(encoder.encode(`${size}\r\nabc\r\n`)),
      /malformed chunk size/,
      JSON.stringify(size),
    );
  }
});

Deno.test("chunked: data longer than its size throws", () => {
  assert.throws(
    () => chunkedDecoder().push(encoder.encode("3\r\nabcdef\r\n0\r\n\r\n")),
    /longer than its size/,
  );
});

Deno.test("chunked: a size line without an end past 8 KiB throws", () => {
  assert.throws(() => chunkedDecoder().push(encoder.encode("1" + ";".repeat(9000))), /too long/);
});

Deno.test("length: exactly the length, in one push", () => {
  const decoder = lengthDecoder(5);
  assert.deepEqual(feed(decoder, wire("hello")), { body: "hello", done: true, rest: "" });
  assert.equal(decoder.end(), true);
});

Deno.test("length: short input is not done, and EOF there is a truncated body", () => {
  const decoder = lengthDecoder(5);
  assert.deepEqual(feed(decoder, wire("hel")), { body: "hel", done: false, rest: "" });
  assert.equal(decoder.end(), false);
  assert.deepEqual(feed(decoder, wire("lo")), { body: "lo", done: true, rest: "" });
});

Deno.test("length: bytes past the length come back as rest", () => {
  assert.deepEqual(feed(lengthDecoder(5), wire("helloHTTP")), {
    body: "hello",
    done: true,
    rest: "HTTP",
  });
});

Deno.test("length: every split into two pushes gives the same body", () => {
  const all = encoder.encode("0123456789");
  for (let at = 0; at <= all.length; at++) {
    const result = feed(lengthDecoder(8), [all.subarray(0, at), all.subarray(at)]);
    assert.deepEqual(result, { body: "01234567", done: true, rest: "89" }, `split at ${at}`);
  }
});

Deno.test("close-delimited: everything is body, never done, and complete at EOF", () => {
  const decoder = closeDelimitedDecoder();
  assert.deepEqual(feed(decoder, [...wire("a"), new Uint8Array(0), ...wire("bc")]), {
    body: "abc",
    done: false,
    rest: "",
  });
  assert.deepEqual(decoder.push(new Uint8Array(0)).data, []);
  assert.equal(decoder.end(), true);
});
