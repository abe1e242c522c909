import assert from "node:assert/strict";
import { readConversation } from "./scripted_conversation.ts";
import { findCommand, findPath, planStep } from "./scripted_plan.ts";

const fn = (name: string) => ({ kind: "function" as const, name });

Deno.test("findPath: first /token of the newest text, trailing punctuation dropped", () => {
  assert.equal(findPath(["see /a/b.txt, then /c"]), "/a/b.txt");
  assert.equal(findPath(["no path here", "older: (/etc/hosts)."]), undefined);
  assert.equal(findPath(["no path", "/etc/hosts."]), "/etc/hosts");
  assert.equal(findPath(["a / b"]), undefined);
});

Deno.test("findCommand: first backticked text", () => {
  assert.equal(findCommand(["run `ls -la` and `pwd`"]), "ls -la");
  assert.equal(findCommand(["plain", "older `date`"]), "date");
  assert.equal(findCommand(["``"]), undefined);
});

Deno.test("planStep: tool preference Read > exec_command > shell > local_shell > first", () => {
  const userTexts = ["read /x/y and run `echo hi`"];
  const plan = (tools: Parameters<typeof planStep>[0]["tools"]) =>
    planStep({ tools, userTexts, toolResult: undefined });
  assert.deepEqual(plan([fn("Bash"), fn("exec_command"), fn("Read")]), {
    kind: "tool_call",
    name: "Read",
    input: { file_path: "/x/y" },
  });
  assert.deepEqual(plan([fn("shell"), fn("exec_command")]), {
    kind: "tool_call",
    name: "exec_command",
    input: { cmd: "echo hi" },
  });
  assert.deepEqual(plan([{ kind: "local_shell" }, fn("shell")]), {
    kind: "tool_call",
    name: "shell",
    input: { command: ["bash", "-lc", "echo hi"] },
  });
  assert.deepEqual(plan([fn("Bash"), { kind: "local_shell" }]), {
    kind: "local_shell_call",
    command: ["bash", "-lc", "echo hi"],
  });
  assert.deepEqual(plan([fn("Bash"), fn("Grep")]), { kind: "tool_call", name: "Bash", input: {} });
});

Deno.test("planStep: tool result wins; missing argument and no tools give text", () => {
  assert.deepEqual(
    planStep({ tools: [fn("Read")], userTexts: ["/a"], toolResult: "line one\r\nline two" }),
    { kind: "text", text: "Tool said: line one" },
  );
  assert.deepEqual(
    planStep({ tools: [fn("Read")], userTexts: ["no path"], toolResult: undefined }),
    {
      kind: "text",
      text: "Scripted upstream: no /path in the user text for Read.",
    },
  );
  assert.deepEqual(planStep({ tools: [], userTexts: ["hello\nworld"], toolResult: undefined }), {
    kind: "text",
    text: "You said: hello",
  });
});

Deno.test("readConversation anthropic: Claude Code shape (system message, reminders, server tools)", () => {
  const body = {
    tools: [
      { name: "Read", input_schema: {} },
      { type: "web_search_20250305", name: "web_search" },
      { type: "custom", name: "Bash", input_schema: {} },
    ],
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "<system-reminder>/not/this</system-reminder>" },
          { type: "text", text: "Read /etc/hostname" },
        ],
      },
      { role: "system", content: "reminder" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: {} }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "host-1" }] },
          { type: "text", text: "<system-reminder>x</system-reminder>" },
        ],
      },
      { role: "system", content: "another reminder" },
    ],
  };
  const conversation = readConversation("anthropic", body);
  assert.deepEqual(conversation.tools, [fn("Read"), fn("Bash")]);
  assert.equal(conversation.toolResult, "host-1");
  assert.equal(findPath(conversation.userTexts.slice(1)), "/etc/hostname");
  const firstTurn = readConversation("anthropic", { ...body, messages: body.messages.slice(0, 2) });
  assert.equal(firstTurn.toolResult, undefined);
  assert.equal(findPath(firstTurn.userTexts), "/etc/hostname");
});

Deno.test("readConversation chat: tool messages after the last user message only", () => {
  const messages = [
    { role: "user", content: [{ type: "text", text: "run `ls`" }] },
    { role: "assistant", content: null, tool_calls: [] },
    { role: "tool", tool_call_id: "a", content: "first\nx" },
    { role: "tool", tool_call_id: "b", content: "second" },
  ];
  const tools = [{ type: "function", function: { name: "exec_command" } }];
  assert.equal(readConversation("chat", { tools, messages }).toolResult, "first\nx");
  const asked = readConversation("chat", {
    tools,
    messages: [...messages, { role: "user", content: "again" }],
  });
  assert.equal(asked.toolResult, undefined);
  assert.deepEqual(asked.userTexts, ["again", "run `ls`"]);
  assert.deepEqual(asked.tools, [fn("exec_command")]);
});

Deno.test("readConversation responses: the three tool-output item types, string input", () => {
  const user = { type: "message", role: "user", content: [{ type: "input_text", text: "go" }] };
  for (
    const type of ["function_call_output", "custom_tool_call_output", "local_shell_call_output"]
  ) {
    const conversation = readConversation("responses", {
      input: [user, { type: "reasoning", summary: [] }, { type, call_id: "c", output: "out" }],
    });
    assert.equal(conversation.toolResult, "out", type);
  }
  const arrayOutput = readConversation("responses", {
    input: [user, {
      type: "function_call_output",
      call_id: "c",
      output: [{ type: "input_text", text: "from parts" }],
    }],
  });
  assert.equal(arrayOutput.toolResult, "from parts");
  const plain = readConversation("responses", {
    input: "hello",
    tools: [{ type: "local_shell" }, { type: "function", name: "f" }, { type: "web_search" }],
  });
  assert.deepEqual(plain, {
    tools: [{ kind: "local_shell" }, fn("f")],
    userTexts: ["hello"],
    toolResult: undefined,
  });
});
