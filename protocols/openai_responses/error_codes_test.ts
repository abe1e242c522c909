import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { responsesErrorOf, streamFailure } from "./error_codes.ts";

Deno.test("streamFailure: codes map to kinds and statuses, the code is kept", () => {
  const cases: Array<[string | null, string, number]> = [
    ["rate_limit_exceeded", "rate_limit", 429],
    ["insufficient_quota", "rate_limit", 429],
    ["context_length_exceeded", "invalid_request", 400],
    ["invalid_prompt", "invalid_request", 400],
    ["invalid_image_url", "invalid_request", 400],
    ["vector_store_timeout", "timeout", 504],
    ["server_error", "upstream", 502],
    [null, "upstream", 502],
  ];
  for (const [code, kind, status] of cases) {
    const e = streamFailure("openai", code, "why");
    assert.equal(e.kind, kind, String(code));
    assert.equal(e.status, status);
    assert.equal(e.code, code ?? "server_error");
    assert.match(e.message, /^Provider "openai" failed the response .*: why$/);
  }
});

Deno.test("responsesErrorOf: the error's code, else one from its kind", () => {
  assert.deepEqual(
    responsesErrorOf(
      new GatewayError("invalid_request", 400, "m", { code: "context_length_exceeded" }),
    ),
    { code: "context_length_exceeded", message: "m" },
  );
  assert.equal(
    responsesErrorOf(new GatewayError("rate_limit", 429, "m")).code,
    "rate_limit_exceeded",
  );
  assert.equal(
    responsesErrorOf(new GatewayError("request_too_large", 413, "m")).code,
    "invalid_prompt",
  );
  assert.equal(responsesErrorOf(new GatewayError("timeout", 504, "m")).code, "server_error");
});
