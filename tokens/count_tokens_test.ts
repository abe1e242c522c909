import assert from "node:assert/strict";
import { countRequestTokens, countTextTokens } from "./count_tokens.ts";
import type { CoreRequest } from "../core/request.ts";

const base: CoreRequest = {
  model: "m",
  system: [],
  messages: [],
  tools: [],
  stream: false,
  source: "anthropic_messages",
};

Deno.test("countTextTokens uses a real BPE vocabulary", () => {
  assert.equal(countTextTokens("Hello world"), 2);
  assert.ok(countTextTokens("a".repeat(1000)) < 1000);
});

Deno.test("countRequestTokens grows with system, messages, tools and images", () => {
  const empty = countRequestTokens(base);
  const withText = countRequestTokens({
    ...base,
    system: [{ type: "text", text: "You are terse." }],
    messages: [{ role: "user", content: [{ type: "text", text: "Say hi to the world." }] }],
  });
  assert.ok(withText > empty + 8);
  const withTool = countRequestTokens({
    ...base,
    tools: [{
      type: "function",
      name: "Read",
      description: "Read a file",
      parameters: { type: "object" },
    }],
  });
  assert.ok(withTool > empty);
  const withImage = countRequestTokens({
    ...base,
    messages: [{
      role: "user",
      content: [{ type: "image", source: { kind: "url", url: "https://x/y.png" } }],
    }],
  });
  assert.equal(withImage - empty, 3 + 765);
});
