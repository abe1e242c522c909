/** Span names and attribute values: operations per route, provider names per kind, the
 * upstream's address, an attempt's error type, a settled request's outcome. */
import assert from "node:assert/strict";
import { testSettled, testUsageRecord } from "../test_requests.ts";
import {
  attemptEndAttributes,
  clientSpanName,
  operationOf,
  providerNameOf,
  serverOf,
  serverSpanName,
  settledAttributes,
} from "./attributes.ts";

Deno.test("tracing attributes: operation per route, provider per kind, span names", () => {
  assert.equal(operationOf("/v1/chat/completions"), "chat");
  assert.equal(operationOf("/v1/messages"), "chat");
  assert.equal(operationOf("/v1/responses"), "chat");
  assert.equal(operationOf("/v1/images/generations"), "generate_content");
  assert.equal(operationOf("/v1/messages/count_tokens"), "count_tokens");
  assert.equal(providerNameOf("openai"), "openai");
  assert.equal(providerNameOf("anthropic"), "anthropic");
  assert.equal(providerNameOf("openai_compatible"), "openai");
  assert.equal(providerNameOf("mock"), "gatehouse.mock");
  assert.equal(serverSpanName("/v1/messages"), "POST /v1/messages");
  assert.equal(clientSpanName("chat", "claude-x"), "chat claude-x");
});

Deno.test("tracing attributes: the upstream's address, never its credentials", () => {
  assert.deepEqual(serverOf("https://api.openai.com"), {
    "server.address": "api.openai.com",
    "server.port": 443,
  });
  assert.deepEqual(serverOf("http://user:pw@10.0.0.1:8000/base"), {
    "server.address": "10.0.0.1",
    "server.port": 8000,
  });
  assert.deepEqual(serverOf(""), {});
});

Deno.test("tracing attributes: an attempt's error type is its status, else its result", () => {
  const base = { deployment: "d", provider: "p", model: "m", ms: 1 };
  assert.deepEqual(attemptEndAttributes({ ...base, status: 200, result: "ok" }).error, null);
  assert.equal(
    attemptEndAttributes({ ...base, status: 429, result: "retryable_status" }).error,
    "429",
  );
  assert.equal(attemptEndAttributes({ ...base, status: 400, result: "ok" }).error, "400");
  const timeout = attemptEndAttributes({ ...base, status: 0, result: "header_timeout" });
  assert.equal(timeout.error, "header_timeout");
  assert.ok(!("http.response.status_code" in timeout.attributes));
});

Deno.test("tracing attributes: a refusal's server span names its code", () => {
  const record = testUsageRecord({
    model: "gpt-x",
    servedModel: "",
    upstream: "",
    status: 429,
    outcome: "rejected",
    attempts: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    cost: 0,
    latencyMs: 1,
    firstByteMs: null,
    stream: false,
  });
  const request = testSettled(record, {
    refusal: "rate_limit_exceeded",
    limit: "rpm",
    durationMs: 1,
    firstByteMs: null,
    overheadMs: null,
    upstreamMs: 0,
    finishReasons: [],
    mode: null,
  });

  const { attributes, error } = settledAttributes(request, null);
  assert.equal(error, "rate_limit_exceeded");
  assert.equal(attributes["error.type"], "rate_limit_exceeded");
  assert.equal(attributes["gatehouse.refusal"], "rate_limit_exceeded");
  assert.equal(attributes["gatehouse.limit"], "rpm");
  assert.equal(attributes["gatehouse.outcome"], "rejected");
  assert.ok(!("gen_ai.provider.name" in attributes));
  assert.ok(!("gen_ai.response.model" in attributes));
  assert.ok(!("gatehouse.overhead_ms" in attributes));
});
