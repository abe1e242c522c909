import assert from "node:assert/strict";
import { shortenToolName, toolNameRestorer } from "./tool_names.ts";
import type { CoreRequest } from "../core/request.ts";

Deno.test("shortenToolName keeps short names and shortens long ones reversibly", () => {
  assert.equal(shortenToolName("Read"), "Read");
  const long = "mcp__server_with_a_long_name__tool_with_an_even_longer_name_than_allowed";
  const short = shortenToolName(long);
  assert.equal(short.length, 64);
  assert.equal(shortenToolName(long), short);
  const request: CoreRequest = {
    model: "m",
    system: [],
    messages: [],
    tools: [{ type: "function", name: long, parameters: {} }],
    stream: false,
    source: "anthropic_messages",
  };
  const restore = toolNameRestorer(request);
  assert.equal(restore(short), long);
  assert.equal(restore("Read"), "Read");
});
