import assert from "node:assert/strict";
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  backoffMs,
  isContextOverflow,
  isRetryableStatus,
  MAX_HONOURED_RETRY_AFTER_MS,
  retryAfterMs,
} from "./retry_policy.ts";

Deno.test("isRetryableStatus: 408, 429, 500, 502, 503, 504 and 529 are retried", () => {
  for (const status of [408, 429, 500, 502, 503, 504, 529]) {
    assert.equal(isRetryableStatus(status), true, String(status));
  }
});

Deno.test("isRetryableStatus: the client's own errors and other statuses are not", () => {
  for (const status of [200, 400, 401, 403, 404, 409, 413, 422, 501, 505]) {
    assert.equal(isRetryableStatus(status), false, String(status));
  }
});

Deno.test("backoffMs: a random draw of 0 waits nothing", () => {
  for (let n = 1; n <= 8; n++) assert.equal(backoffMs(n, () => 0), 0);
});

Deno.test("backoffMs: the ceiling doubles from 250 ms and stops at 4 s", () => {
  const ceilings = [250, 500, 1000, 2000, 4000, 4000, 4000];
  assert.equal(BACKOFF_BASE_MS, 250);
  assert.equal(BACKOFF_CAP_MS, 4000);
  ceilings.forEach((ceiling, i) => {
    const wait = backoffMs(i + 1, () => 0.999);
    assert.ok(wait < ceiling, `retry ${i + 1}: ${wait} < ${ceiling}`);
    assert.ok(wait >= ceiling - 5, `retry ${i + 1}: ${wait} just under ${ceiling}`);
  });
});

Deno.test("backoffMs: the wait is the draw's share of the ceiling, whole milliseconds", () => {
  assert.equal(backoffMs(1, () => 0.5), 125);
  assert.equal(backoffMs(3, () => 0.25), 250);
  assert.equal(backoffMs(2, () => 0.3333), 166);
});

Deno.test("backoffMs: a retry number below 1 uses the first ceiling", () => {
  assert.equal(backoffMs(0, () => 0.999), 249);
});

Deno.test("backoffMs: Math.random stays inside the bounds", () => {
  for (let i = 0; i < 200; i++) {
    const wait = backoffMs(3);
    assert.ok(wait >= 0 && wait < 1000 && Number.isInteger(wait), String(wait));
  }
});

Deno.test("MAX_HONOURED_RETRY_AFTER_MS: 30 s", () => {
  assert.equal(MAX_HONOURED_RETRY_AFTER_MS, 30_000);
});

Deno.test("retryAfterMs: no header names no wait", () => {
  assert.equal(retryAfterMs(new Headers()), null);
  assert.equal(retryAfterMs(new Headers({ "x-should-retry": "true" })), null);
});

Deno.test("retryAfterMs: retry-after-ms, rounded up", () => {
  assert.equal(retryAfterMs(new Headers({ "retry-after-ms": "1500" })), 1500);
  assert.equal(retryAfterMs(new Headers({ "retry-after-ms": "12.3" })), 13);
  assert.equal(retryAfterMs(new Headers({ "retry-after-ms": "0" })), 0);
});

Deno.test("retryAfterMs: retry-after-ms wins over retry-after", () => {
  const headers = new Headers({ "retry-after-ms": "250", "retry-after": "20" });
  assert.equal(retryAfterMs(headers), 250);
});

Deno.test("retryAfterMs: a garbage retry-after-ms leaves it to retry-after", () => {
  const headers = new Headers({ "retry-after-ms": "soon", "retry-after": "2" });
  assert.equal(retryAfterMs(headers), 2000);
  assert.equal(retryAfterMs(new Headers({ "retry-after-ms": "-5" })), null);
});

Deno.test("retryAfterMs: an empty retry-after-ms leaves it to retry-after", () => {
  const headers = new Headers({ "retry-after-ms": "", "retry-after": "20" });
  assert.equal(retryAfterMs(headers), 20_000);
});

Deno.test("retryAfterMs: retry-after in seconds", () => {
  assert.equal(retryAfterMs(new Headers({ "retry-after": "2" })), 2000);
  assert.equal(retryAfterMs(new Headers({ "retry-after": "0.5" })), 500);
  assert.equal(retryAfterMs(new Headers({ "retry-after": " 7 " })), 7000);
  assert.equal(retryAfterMs(new Headers({ "retry-after": "0" })), 0);
});

Deno.test("retryAfterMs: retry-after as an HTTP date is the time until then", () => {
  const now = Date.parse("Wed, 25 Nov 2026 13:00:00 GMT");
  const headers = new Headers({ "retry-after": "Wed, 25 Nov 2026 13:00:07 GMT" });
  assert.equal(retryAfterMs(headers, now), 7000);
});

Deno.test("retryAfterMs: an HTTP date already past waits nothing", () => {
  const now = Date.parse("Wed, 25 Nov 2026 13:00:00 GMT");
  const headers = new Headers({ "retry-after": "Wed, 25 Nov 2026 12:59:00 GMT" });
  assert.equal(retryAfterMs(headers, now), 0);
});

Deno.test("retryAfterMs: garbage and negative retry-after name no wait", () => {
  for (const value of ["soon", "-3", "Infinity", "  "]) {
    assert.equal(retryAfterMs(new Headers({ "retry-after": value })), null, value);
  }
});

const OPENAI_OVERFLOW = JSON.stringify({
  error: {
    message: "This model's maximum context length is 8192 tokens. However, your messages " +
      "resulted in 9000 tokens.",
    type: "invalid_request_error",
    param: "messages",
    code: "context_length_exceeded",
  },
});

const ANTHROPIC_OVERFLOW = JSON.stringify({
  type: "error",
  error: {
    type: "invalid_request_error",
    message: "prompt is too long: 210000 tokens > 200000 maximum",
  },
});

Deno.test("isContextOverflow: OpenAI's context_length_exceeded", () => {
  assert.equal(isContextOverflow(400, OPENAI_OVERFLOW), true);
  assert.equal(
    isContextOverflow(400, '{"error":{"code":"context_length_exceeded","message":"too long"}}'),
    true,
  );
});

Deno.test("isContextOverflow: Anthropic's prompt is too long", () => {
  assert.equal(isContextOverflow(400, ANTHROPIC_OVERFLOW), true);
});

Deno.test("isContextOverflow: Anthropic's input length and max_tokens over the limit", () => {
  const body = JSON.stringify({
    type: "error",
    error: {
      type: "invalid_request_error",
      message: "input length and `max_tokens` exceed context limit: 198000 + 8192 > 200000",
    },
  });
  assert.equal(isContextOverflow(400, body), true);
});

Deno.test("isContextOverflow: other 400s are not", () => {
  const bodies = [
    '{"error":{"type":"invalid_request_error","message":"max_tokens: must be at most 8192"}}',
    '{"error":{"message":"Invalid value for temperature","code":"invalid_value"}}',
    "Bad Request",
    "",
  ];
  for (const body of bodies) assert.equal(isContextOverflow(400, body), false, body);
});

Deno.test("isContextOverflow: only 400, 413 and 422 answers can be one", () => {
  assert.equal(isContextOverflow(413, ANTHROPIC_OVERFLOW), true);
  assert.equal(isContextOverflow(422, OPENAI_OVERFLOW), true);
  for (const status of [200, 429, 500, 503]) {
    assert.equal(isContextOverflow(status, OPENAI_OVERFLOW), false, String(status));
  }
});
