import assert from "node:assert/strict";
import { upstreamCodec } from "../protocols/registry.ts";
import { MAX_ERROR_BODY, readUpstreamError } from "./upstream_failure.ts";

const codec = upstreamCodec("openai_chat", { providerName: "openai" });

Deno.test("readUpstreamError hands the codec the provider's JSON error", async () => {
  const response = Response.json(
    { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } },
    { status: 429 },
  );
  const error = await readUpstreamError(response, codec);
  assert.equal(error.status, 429);
  assert.match(error.message, /Rate limit reached/);
});

Deno.test("readUpstreamError stops reading a huge error body at its cap and cancels the rest", async () => {
  let sent = 0;
  let cancelled = false;
  const chunk = new TextEncoder().encode("<html>".padEnd(4096, "x"));
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      sent += chunk.length;
      controller.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  }, { highWaterMark: 0 });
  const error = await readUpstreamError(new Response(endless, { status: 502 }), codec);
  assert.equal(error.status, 502);
  assert.match(error.message, /<html>x+/);
  assert.ok(sent >= MAX_ERROR_BODY && sent < MAX_ERROR_BODY + 2 * chunk.length, `read ${sent}`);
  assert.ok(cancelled, "the rest of the body was cancelled");
});

Deno.test("readUpstreamError reads a missing error body as no message", async () => {
  const error = await readUpstreamError(new Response(null, { status: 500 }), codec);
  assert.equal(error.status, 500);
  assert.equal(error.message, 'Provider "openai" returned HTTP 500');
});

Deno.test("readUpstreamError cuts a long text body at a character boundary", async () => {
  let seen: unknown = null;
  const recorder = {
    ...codec,
    decodeError: (status: number, body: unknown, headers: Headers) => {
      seen = body;
      return codec.decodeError(status, body, headers);
    },
  };
  // One ASCII byte, then two-byte characters: the cut at 64 KiB falls inside one of them.
  const text = "x" + "\u00e9".repeat(MAX_ERROR_BODY);
  await readUpstreamError(new Response(text, { status: 500 }), recorder);
  assert.equal(typeof seen, "string");
  const cut = seen as unknown as string;
  assert.equal(cut.length, MAX_ERROR_BODY / 2, "x and 32767 whole characters");
  assert.ok(!cut.includes("\ufffd"));
});
