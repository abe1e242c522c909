import assert from "node:assert/strict";
import { shortenToolName } from "../tool_names.ts";
import { syntheticCallId, toolCallReader } from "./tool_calls_in.ts";
import { coreRequest } from "./test_support.ts";

Deno.test("toolCallReader restores names and knows custom tools", () => {
  const long = "tool_".repeat(20);
  const reader = toolCallReader(coreRequest({
    tools: [
      { type: "function", name: long, parameters: {} },
      { type: "custom", name: "apply_patch" },
    ],
  }));
  assert.equal(reader.restore(shortenToolName(long)), long);
  assert.equal(reader.restore("plain"), "plain");
  assert.equal(reader.kindOf("apply_patch"), "custom");
  assert.equal(reader.kindOf(long), "function");
});

Deno.test("unwrapCustom returns the input field, or the arguments when they are not the wrapper", () => {
  const reader = toolCallReader(coreRequest());
  assert.equal(reader.unwrapCustom('{"input":"line\\n"}'), "line\n");
  assert.equal(reader.unwrapCustom('{"other":1}'), '{"other":1}');
  assert.equal(reader.unwrapCustom("raw text"), "raw text");
});

Deno.test("syntheticCallId is deterministic", () => {
  assert.equal(syntheticCallId("chatcmpl-AbC-123", 2), "call_atcmplAbC123_2");
  assert.equal(syntheticCallId("chatcmpl-AbC-123", 2), syntheticCallId("chatcmpl-AbC-123", 2));
});
