import assert from "node:assert/strict";
import { encryptedContentOf, tokenOfEncryptedContent } from "./reasoning_token.ts";

Deno.test("reasoning tokens: OpenAI raw, Anthropic in an envelope, both ways", () => {
  assert.equal(encryptedContentOf({ vendor: "openai", value: "gAAA" }), "gAAA");
  const signed = encryptedContentOf({ vendor: "anthropic", value: "sig" });
  const redacted = encryptedContentOf({ vendor: "anthropic", value: "data" }, true);
  assert.deepEqual(tokenOfEncryptedContent(signed), {
    token: { vendor: "anthropic", value: "sig" },
    redacted: false,
  });
  assert.deepEqual(tokenOfEncryptedContent(redacted), {
    token: { vendor: "anthropic", value: "data" },
    redacted: true,
  });
  assert.deepEqual(tokenOfEncryptedContent("gAAA"), {
    token: { vendor: "openai", value: "gAAA" },
    redacted: false,
  });
});
