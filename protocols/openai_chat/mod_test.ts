import { stepStream } from "../../core/step.ts";
import assert from "node:assert/strict";
import { createClientCodec, createUpstreamCodec } from "./mod.ts";
import { coreRequest, events, pipe } from "./test_support.ts";

Deno.test("createClientCodec wires the chat client face", () => {
  const codec = createClientCodec();
  assert.equal(codec.wire, "openai_chat");
  const { value } = codec.decodeRequest({ model: "m", messages: [{ role: "user", content: "x" }] });
  assert.equal(value.source, "openai_chat");
});

Deno.test("createUpstreamCodec passes compat and the provider name through", async () => {
  const compat = createUpstreamCodec({ providerName: "ollama", compat: true });
  const openai = createUpstreamCodec({ providerName: "openai" });
  const request = coreRequest({ maxOutputTokens: 5 });
  assert.equal((compat.encodeRequest(request).value.body as Record<string, unknown>).max_tokens, 5);
  assert.equal(
    (openai.encodeRequest(request).value.body as Record<string, unknown>).max_completion_tokens,
    5,
  );
  assert.match(compat.decodeError(500, "boom", new Headers()).message, /ollama.*boom/);
  const parts = await pipe(events({ choices: [] }), stepStream(compat.decodeStream(request)));
  const last = parts.at(-1);
  assert.ok(last?.type === "error" && last.error.message.includes("ollama"));
  assert.equal(compat.usageOfBody({ usage: { prompt_tokens: 1 } })?.inputTokens, 1);
  assert.equal(compat.usageOfEvent({ data: "[DONE]" }), null);
});
