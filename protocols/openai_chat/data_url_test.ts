import assert from "node:assert/strict";
import { decodeBase64Text, parseDataUrl, toDataUrl } from "./data_url.ts";

Deno.test("parseDataUrl reads base64 data URLs, with or without parameters", () => {
  assert.deepEqual(parseDataUrl("data:image/png;base64,AAAA"), {
    mediaType: "image/png",
    data: "AAAA",
  });
  assert.deepEqual(parseDataUrl("data:application/pdf;name=a.pdf;base64,JVBE"), {
    mediaType: "application/pdf",
    data: "JVBE",
  });
});

Deno.test("parseDataUrl rejects plain URLs and non-base64 data URLs", () => {
  assert.equal(parseDataUrl("https://example.com/a.png"), null);
  assert.equal(parseDataUrl("data:text/plain,hello"), null);
});

Deno.test("toDataUrl and decodeBase64Text round-trip UTF-8 text", () => {
  const data = btoa(String.fromCharCode(...new TextEncoder().encode("héllo")));
  assert.equal(toDataUrl("text/plain", data), `data:text/plain;base64,${data}`);
  assert.equal(decodeBase64Text(data), "héllo");
});
