import assert from "node:assert/strict";
import { localShellFunctionTool } from "./local_shell.ts";
import { callItem, callPayload, callShaper, unwrapCustomInput } from "./call_items.ts";
import { coreRequest } from "./test_util.ts";

const shape = callShaper(coreRequest({
  tools: [
    { type: "function", name: "mcp__d__s", parameters: {}, namespace: "mcp__d__" },
    { type: "custom", name: "apply_patch" },
    localShellFunctionTool(),
  ],
}));

Deno.test("callShaper: the item type follows the kind and the declared tool", () => {
  assert.deepEqual(shape("mcp__d__s", "function"), {
    type: "function_call",
    name: "s",
    namespace: "mcp__d__",
    unwrap: false,
    streamable: true,
  });
  assert.deepEqual(shape("apply_patch", "custom"), {
    type: "custom_tool_call",
    name: "apply_patch",
    unwrap: false,
    streamable: true,
  });
  assert.deepEqual(shape("apply_patch", "function"), {
    type: "custom_tool_call",
    name: "apply_patch",
    unwrap: true,
    streamable: false,
  });
  assert.equal(shape("local_shell", "function").type, "local_shell_call");
  assert.equal(shape("anything", "local_shell").type, "local_shell_call");
  assert.equal(shape("other", "function").type, "function_call");
});

Deno.test("callPayload and callItem", () => {
  assert.equal(unwrapCustomInput('{"input":"raw"}'), "raw");
  assert.equal(unwrapCustomInput("not json"), "not json");
  assert.equal(unwrapCustomInput('{"other":1}'), '{"other":1}');
  assert.equal(callPayload(shape("apply_patch", "function"), '{"input":"p"}'), "p");
  assert.deepEqual(
    callItem(shape("local_shell", "function"), { id: "l", callId: "c" }, "", "in_progress"),
    {
      type: "local_shell_call",
      id: "l",
      call_id: "c",
      status: "in_progress",
      action: { type: "exec", command: [], env: {} },
    },
  );
  assert.deepEqual(
    callItem(shape("apply_patch", "custom"), { id: "i", callId: "c" }, "x", "completed"),
    {
      type: "custom_tool_call",
      id: "i",
      call_id: "c",
      name: "apply_patch",
      input: "x",
      status: "completed",
    },
  );
});
