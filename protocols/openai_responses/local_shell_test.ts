import assert from "node:assert/strict";
import { localShellAction, localShellArguments, localShellFunctionTool } from "./local_shell.ts";

Deno.test("local shell: action ↔ function arguments", () => {
  const args = localShellArguments({
    command: ["ls", "-a"],
    env: { A: "1" },
    working_directory: "/w",
    timeout_ms: 1000,
    user: null,
  });
  assert.equal(
    args,
    '{"command":["ls","-a"],"env":{"A":"1"},"working_directory":"/w","timeout_ms":1000}',
  );
  assert.deepEqual(localShellAction(args), {
    type: "exec",
    command: ["ls", "-a"],
    env: { A: "1" },
    working_directory: "/w",
    timeout_ms: 1000,
  });
  assert.deepEqual(localShellAction('{"command":"pwd"}'), {
    type: "exec",
    command: ["pwd"],
    env: {},
  });
  assert.equal(localShellAction("nope"), null);
  assert.equal(localShellAction('{"command":[1]}'), null);
  assert.equal(localShellAction("null"), null);
});

Deno.test("local shell: the function stand-in requires a command", () => {
  const tool = localShellFunctionTool();
  assert.equal(tool.name, "local_shell");
  assert.equal(tool.native, "local_shell");
  assert.deepEqual((tool.parameters as { required: string[] }).required, ["command"]);
});
