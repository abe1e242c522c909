import { stepStream } from "../../core/step.ts";
import assert from "node:assert/strict";
import {
  anthropicErrorBody,
  countTokensPath,
  createClientCodec,
  createUpstreamCodec,
  MessageResponseSchema,
  MessagesRequestSchema,
} from "./mod.ts";
import { GatewayError } from "../../core/errors.ts";
import { coreRequest, decodeEvents, fixtureEvents, fixtureJson } from "./testing.ts";

Deno.test("createClientCodec speaks anthropic_messages", () => {
  const codec = createClientCodec();
  assert.equal(codec.wire, "anthropic_messages");
  const { value } = codec.decodeRequest({
    model: "m",
    max_tokens: 5,
    messages: [{ role: "user", content: "x" }],
  });
  assert.equal(value.source, "anthropic_messages");
  assert.equal(
    typeof codec.encodeStream({ clientModel: "m", request: value }).transform,
    "function",
  );
});

Deno.test("createUpstreamCodec uses its options and names its provider in errors", async () => {
  const codec = createUpstreamCodec({ providerName: "anthropic-eu", defaultMaxTokens: 4096 });
  assert.equal(codec.wire, "anthropic_messages");
  const call = codec.encodeRequest(
    coreRequest({ messages: [{ role: "user", content: [{ type: "text", text: "x" }] }] }),
  );
  assert.equal((call.value.body as { max_tokens: number }).max_tokens, 4096);
  const error = codec.decodeError(
    529,
    { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    new Headers(),
  );
  assert.equal(error.kind, "overloaded");
  assert.match(error.message, /anthropic-eu/);
  const response = codec.decodeResponse(fixtureJson("anthropic-text.json"), coreRequest());
  assert.equal(response.value.stopReason, "end_turn");
  assert.equal(codec.usageOfBody(fixtureJson("anthropic-text.json"))?.outputTokens, 29);
  const usage = fixtureEvents("anthropic-text.chunks.txt").map((e) => codec.usageOfEvent(e)).filter(
    (u) => u !== null,
  );
  assert.deepEqual(usage, [
    { inputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 1 },
    { inputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 30 },
  ]);
  const withoutTime = (parts: Array<{ type: string }>) =>
    parts.map((part) => ({ ...part, created: undefined }));
  const parts = await Array.fromAsync(
    ReadableStream.from(fixtureEvents("anthropic-text.chunks.txt")).pipeThrough(
      stepStream(codec.decodeStream(coreRequest())),
    ),
  );
  const direct = await decodeEvents(fixtureEvents("anthropic-text.chunks.txt"));
  assert.deepEqual(withoutTime(parts), withoutTime(direct));
});

Deno.test("mod exports the schemas, the count-tokens path and the error body", () => {
  assert.equal(countTokensPath, "/v1/messages/count_tokens");
  assert.ok(MessagesRequestSchema.safeParse({ model: "m", max_tokens: 1, messages: [] }).success);
  assert.ok(MessageResponseSchema.safeParse(fixtureJson("anthropic-json-tool.1.json")).success);
  assert.deepEqual(anthropicErrorBody(new GatewayError("timeout", 504, "slow")), {
    type: "error",
    error: { type: "timeout_error", message: "slow" },
  });
});
