import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { startScriptedUpstream } from "./scripted_upstream.ts";
import { estimateTokens } from "./tokens.ts";

const READ_TOOL = {
  name: "Read",
  description: "Reads a file",
  input_schema: {
    type: "object" as const,
    properties: { file_path: { type: "string" } },
    required: ["file_path"],
  },
};
const EXEC_PARAMETERS = {
  type: "object",
  properties: { cmd: { type: "string" } },
  required: ["cmd"],
};

for (const stream of [true, false]) {
  Deno.test(`scripted anthropic: Read round trip (stream=${stream})`, async () => {
    const upstream = startScriptedUpstream();
    const client = new Anthropic({ baseURL: upstream.url, apiKey: "x", maxRetries: 0 });
    const ask = (messages: Anthropic.MessageParam[]) => {
      const params = { model: "claude-scripted", max_tokens: 256, tools: [READ_TOOL], messages };
      return stream
        ? client.messages.stream(params).finalMessage()
        : client.messages.create(params);
    };
    try {
      const history: Anthropic.MessageParam[] = [
        { role: "user", content: "Please read /etc/hostname, then summarize." },
      ];
      const first = await ask(history);
      assert.equal(first.stop_reason, "tool_use");
      assert.match(first.id, /^msg_01[0-9A-Za-z]{22}$/);
      const call = first.content.find((b) => b.type === "tool_use");
      assert.ok(call && call.type === "tool_use");
      assert.match(call.id, /^toolu_01[0-9A-Za-z]{22}$/);
      assert.equal(call.name, "Read");
      assert.deepEqual(call.input, { file_path: "/etc/hostname" });
      assert.equal(first.usage.input_tokens, estimateTokens(upstream.requests[0]?.rawBody ?? ""));

      history.push({ role: "assistant", content: first.content }, {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: call.id, content: "box-17\nsecond line" }],
      });
      const second = await ask(history);
      assert.equal(second.stop_reason, "end_turn");
      assert.deepEqual(second.content.map((b) => b.type === "text" ? b.text : b.type), [
        "Tool said: box-17",
      ]);
      assert.ok(second.usage.input_tokens > first.usage.input_tokens);
      assert.deepEqual(upstream.steps.map((s) => [s.wire, s.stream, s.step.kind]), [
        ["anthropic", stream, "tool_call"],
        ["anthropic", stream, "text"],
      ]);
      // @anthropic-ai/sdk 1.10.0 sends `apiKey` as a bearer token, not as `x-api-key`.
      assert.equal(upstream.requests[0]?.headers.authorization, "Bearer x");
      assert.equal(upstream.requests[0]?.headers["x-api-key"], undefined);
    } finally {
      await upstream.close();
    }
  });

  Deno.test(`scripted chat: exec_command round trip (stream=${stream})`, async () => {
    const upstream = startScriptedUpstream();
    const client = new OpenAI({ baseURL: upstream.url + "/v1", apiKey: "x", maxRetries: 0 });
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: "function", function: { name: "exec_command", parameters: EXEC_PARAMETERS } },
    ];
    const ask = (messages: OpenAI.ChatCompletionMessageParam[]) => {
      const params = { model: "gpt-scripted", tools, messages };
      return stream
        ? client.chat.completions
          .stream({ ...params, stream_options: { include_usage: true } })
          .finalChatCompletion()
        : client.chat.completions.create(params);
    };
    try {
      const history: OpenAI.ChatCompletionMessageParam[] = [
        { role: "system", content: "You are terse." },
        { role: "user", content: "Run `uname -s` and tell me." },
      ];
      const first = await ask(history);
      assert.match(first.id, /^chatcmpl-[0-9A-Za-z]{29}$/);
      const choice = first.choices[0];
      assert.equal(choice?.finish_reason, "tool_calls");
      const call = choice?.message.tool_calls?.[0];
      assert.ok(call && call.type === "function");
      assert.match(call.id, /^call_[0-9A-Za-z]{24}$/);
      assert.equal(call.function.name, "exec_command");
      assert.deepEqual(JSON.parse(call.function.arguments), { cmd: "uname -s" });
      assert.ok((first.usage?.prompt_tokens ?? 0) > 0);

      history.push(choice.message, {
        role: "tool",
        tool_call_id: call.id,
        content: "Linux\n",
      });
      const second = await ask(history);
      assert.equal(second.choices[0]?.finish_reason, "stop");
      assert.equal(second.choices[0]?.message.content, "Tool said: Linux");
      assert.equal(
        second.usage?.total_tokens,
        (second.usage?.prompt_tokens ?? 0) + (second.usage?.completion_tokens ?? 0),
      );
    } finally {
      await upstream.close();
    }
  });

  Deno.test(`scripted responses: exec_command round trip (stream=${stream})`, async () => {
    const upstream = startScriptedUpstream();
    const client = new OpenAI({ baseURL: upstream.url + "/v1", apiKey: "x", maxRetries: 0 });
    const tools: OpenAI.Responses.Tool[] = [
      { type: "function", name: "exec_command", parameters: EXEC_PARAMETERS, strict: false },
    ];
    const ask = (input: OpenAI.Responses.ResponseInputItem[]) => {
      const params = { model: "gpt-scripted", tools, input, store: false };
      return stream
        ? client.responses.stream(params).finalResponse()
        : client.responses.create(params);
    };
    try {
      const input: OpenAI.Responses.ResponseInputItem[] = [
        { type: "message", role: "developer", content: "Use tools." },
        { type: "message", role: "user", content: [{ type: "input_text", text: "Run `pwd`." }] },
      ];
      const first = await ask(input);
      assert.match(first.id, /^resp_[0-9a-f]{50}$/);
      assert.equal(first.status, "completed");
      const call = first.output[0];
      assert.ok(call && call.type === "function_call");
      assert.match(call.id ?? "", /^fc_[0-9a-f]{50}$/);
      assert.equal(call.name, "exec_command");
      assert.deepEqual(JSON.parse(call.arguments), { cmd: "pwd" });
      assert.equal(JSON.parse(upstream.requests[0]?.rawBody ?? "{}").store, false);

      input.push(
        {
          type: "function_call",
          call_id: call.call_id,
          name: call.name,
          arguments: call.arguments,
        },
        { type: "function_call_output", call_id: call.call_id, output: "/home/dev\nmore" },
      );
      const second = await ask(input);
      assert.equal(second.output_text, "Tool said: /home/dev");
      const message = second.output[0];
      assert.ok(message && message.type === "message");
      assert.match(message.id, /^msg_[0-9a-f]{50}$/);
      assert.equal(second.usage?.input_tokens, estimateTokens(upstream.requests[1]?.rawBody ?? ""));
    } finally {
      await upstream.close();
    }
  });
}

Deno.test("scripted responses: local_shell round trip through the SDK stream", async () => {
  const upstream = startScriptedUpstream({ splitBytes: true });
  const client = new OpenAI({ baseURL: upstream.url + "/v1", apiKey: "x", maxRetries: 0 });
  const tools: OpenAI.Responses.Tool[] = [{ type: "local_shell" }];
  try {
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: "user", content: "Please run `ls -a ~` for me." },
    ];
    const first = await client.responses.stream({ model: "m", tools, input }).finalResponse();
    const call = first.output[0];
    assert.ok(call && call.type === "local_shell_call");
    assert.deepEqual(call.action.command, ["bash", "-lc", "ls -a ~"]);
    input.push(call, { type: "local_shell_call_output", id: call.call_id, output: ".\n..\n" });
    const second = await client.responses.stream({ model: "m", tools, input }).finalResponse();
    assert.equal(second.output_text, "Tool said: .");
  } finally {
    await upstream.close();
  }
});
