/**
 * Tools across protocols: a two-turn tool round trip keeps the call id from the upstream's
 * answer through the client and back into the upstream's next request, and a tool name longer
 * than the providers' 64-character limit is shortened upstream and restored for the client.
 */
import assert from "node:assert/strict";
import type OpenAI from "openai";
import { startRecordedUpstream } from "../fakes/recorded_upstream.ts";
import { lastRequest, startRig, startScriptedUpstream } from "./helpers.ts";
import { anthropicFacts, chatFacts } from "./transcripts.ts";
import { anthropicAnswer, chatAnswer } from "./scripted_answers.ts";

const CLAUDE = "claude-sonnet-5";
const GPT = "gpt-5";

const recorded = startRecordedUpstream();
const rig = await startRig(recorded.url);
const scripted = startScriptedUpstream();
const echoRig = await startRig(scripted.url);

type Json = Record<string, unknown>;
type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const JSON_TOOL: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: "function",
  function: { name: "json", description: "Answer as JSON", parameters: { type: "object" } },
};

Deno.test("chat client, Anthropic upstream: a tool round trip keeps the call id in tool_use and tool_result", async () => {
  recorded.use({ folder: "anthropic-messages", name: "anthropic-json-tool.1", stream: true });
  const turn1: ChatMessage[] = [{ role: "user", content: "Weather as JSON" }];
  const first = await rig.openai.chat.completions.stream({
    model: CLAUDE,
    max_completion_tokens: 256,
    tools: [JSON_TOOL],
    messages: turn1,
  }).finalChatCompletion();
  const facts = await anthropicFacts("anthropic-json-tool.1", true);
  const call = first.choices[0]!.message.tool_calls![0]!;
  assert.equal(call.id, facts.calls[0]!.id);
  assert.equal(call.type, "function");
  if (call.type !== "function") return;

  recorded.use({ folder: "anthropic-messages", name: "anthropic-text", stream: false });
  const second = await rig.openai.chat.completions.create({
    model: CLAUDE,
    max_completion_tokens: 256,
    tools: [JSON_TOOL],
    messages: [
      ...turn1,
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: call.id, content: "stored" },
    ],
  });
  assert.equal(
    second.choices[0]!.message.content,
    (await anthropicFacts("anthropic-text", false)).texts.join("\n\n"),
  );
  const sent = lastRequest(recorded).body as { messages: Array<{ role: string; content: Json[] }> };
  assert.deepEqual(sent.messages.map((m) => m.role), ["user", "assistant", "user"]);
  assert.deepEqual(sent.messages[1]!.content, [
    { type: "tool_use", id: call.id, name: "json", input: facts.calls[0]!.input },
  ]);
  const result = sent.messages[2]!.content[0]!;
  assert.equal(result.type, "tool_result");
  assert.equal(result.tool_use_id, call.id);
  assert.deepEqual(result.content, [{ type: "text", text: "stored" }]);
});

Deno.test("messages client, chat upstream: a tool round trip keeps the call id in tool_calls and the tool message", async () => {
  recorded.use({ folder: "openai-chat", name: "xai-tool-call", stream: true });
  const tools = [{
    name: "weather",
    input_schema: { type: "object" as const, properties: { location: { type: "string" } } },
  }];
  const turn1 = [{ role: "user" as const, content: "Weather in San Francisco?" }];
  const first = await rig.anthropic.messages.stream({
    model: GPT,
    max_tokens: 256,
    tools,
    messages: turn1,
  }).finalMessage();
  const facts = await chatFacts("xai-tool-call", true);
  const use = first.content.find((block) => block.type === "tool_use");
  assert.ok(use && use.type === "tool_use");
  assert.equal(use.id, facts.calls[0]!.id);

  recorded.use({ folder: "openai-chat", name: "openai-text", stream: false });
  const second = await rig.anthropic.messages.create({
    model: GPT,
    max_tokens: 256,
    tools,
    messages: [
      ...turn1,
      // The whole assistant turn goes back, thinking included, as Claude Code sends it.
      { role: "assistant", content: first.content },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: use.id, content: "18 degrees, sunny" }],
      },
    ],
  });
  assert.equal(second.stop_reason, "end_turn");
  const sent = lastRequest(recorded).body as { messages: Json[] };
  assert.deepEqual(sent.messages.map((m) => m.role), ["user", "assistant", "tool"]);
  const assistant = sent.messages[1] as { tool_calls: Array<{ id: string; function: Json }> };
  assert.equal(assistant.tool_calls.length, 1);
  assert.equal(assistant.tool_calls[0]!.id, use.id);
  assert.equal(assistant.tool_calls[0]!.function.name, "weather");
  assert.deepEqual(
    JSON.parse(assistant.tool_calls[0]!.function.arguments as string),
    JSON.parse(facts.calls[0]!.arguments),
  );
  assert.deepEqual(sent.messages[2], {
    role: "tool",
    tool_call_id: use.id,
    content: "18 degrees, sunny",
  });
});

/** Longer than the 64-character limit of both providers. */
const LONG_NAME = "mcp__workspace_server__search_every_repository_file_by_content_and_path";
assert.ok(LONG_NAME.length > 64);

const LONG_TOOL_CHAT: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: "function",
  function: {
    name: LONG_NAME,
    parameters: { type: "object", properties: { q: { type: "string" } } },
  },
};
const LONG_TOOL_MESSAGES = {
  name: LONG_NAME,
  input_schema: { type: "object" as const, properties: { q: { type: "string" } } },
};

/** The one tool name in an upstream request, checked to be a shortened form of LONG_NAME. */
function shortNameSent(tools: Json[], read: (tool: Json) => unknown): string {
  assert.equal(tools.length, 1);
  const name = read(tools[0]!);
  assert.equal(typeof name, "string");
  assert.ok((name as string).length <= 64, `sent ${name}`);
  assert.notEqual(name, LONG_NAME);
  return name as string;
}

/** An Anthropic answer calling the request's own (shortened) tool with `{"q":"x"}`. */
function anthropicToolAnswer(body: Json): Response {
  const name = shortNameSent(body.tools as Json[], (tool) => tool.name);
  return anthropicAnswer(body, {
    blocks: [{ type: "tool_use", id: "toolu_01LongNameCall", name, input: { q: "x" } }],
    stopReason: "tool_use",
    usage: { input_tokens: 10, output_tokens: 5 },
  });
}

/** A chat answer calling the request's own (shortened) tool with `{"q":"x"}`. */
function chatToolAnswer(body: Json): Response {
  const name = shortNameSent(body.tools as Json[], (tool) => (tool.function as Json).name);
  return chatAnswer(body, {
    calls: [{ id: "call_long", name, arguments: '{"q":"x"}' }],
    finishReason: "tool_calls",
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
}

for (const stream of [false, true]) {
  const how = stream ? "streamed" : "not streamed";

  Deno.test(`chat client, Anthropic upstream, ${how}: a tool name over 64 characters is shortened upstream and restored`, async () => {
    scripted.answer((request) => anthropicToolAnswer(request.body as Json));
    const params = {
      model: CLAUDE,
      max_completion_tokens: 256,
      tools: [LONG_TOOL_CHAT],
      tool_choice: { type: "function" as const, function: { name: LONG_NAME } },
      messages: [{ role: "user" as const, content: "Search" }],
    };
    const completion = stream
      ? await echoRig.openai.chat.completions.stream(params).finalChatCompletion()
      : await echoRig.openai.chat.completions.create(params);
    const call = completion.choices[0]!.message.tool_calls![0]!;
    assert.equal(call.type, "function");
    if (call.type !== "function") return;
    assert.equal(call.function.name, LONG_NAME);
    assert.deepEqual(JSON.parse(call.function.arguments), { q: "x" });
    const firstSent = lastRequest(scripted).body as Json;
    const shortName = shortNameSent(firstSent.tools as Json[], (tool) => tool.name);
    assert.deepEqual(firstSent.tool_choice, { type: "tool", name: shortName });

    // The next turn replays the call with its full name: it goes upstream shortened the same way.
    await echoRig.openai.chat.completions.create({
      ...params,
      messages: [
        ...params.messages,
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "tool", tool_call_id: call.id, content: "no match" },
      ],
    });
    const sent = lastRequest(scripted).body as { messages: Array<{ content: Json[] }> };
    assert.equal(sent.messages[1]!.content[0]!.name, shortName);
  });

  Deno.test(`messages client, chat upstream, ${how}: a tool name over 64 characters is shortened upstream and restored`, async () => {
    scripted.answer((request) => chatToolAnswer(request.body as Json));
    const params = {
      model: GPT,
      max_tokens: 256,
      tools: [LONG_TOOL_MESSAGES],
      tool_choice: { type: "tool" as const, name: LONG_NAME },
      messages: [{ role: "user" as const, content: "Search" }],
    };
    const message = stream
      ? await echoRig.anthropic.messages.stream(params).finalMessage()
      : await echoRig.anthropic.messages.create(params);
    const use = message.content.find((block) => block.type === "tool_use");
    assert.ok(use && use.type === "tool_use");
    assert.equal(use.name, LONG_NAME);
    assert.deepEqual(use.input, { q: "x" });
    assert.equal(message.stop_reason, "tool_use");
    const firstSent = lastRequest(scripted).body as Json;
    const shortName = shortNameSent(
      firstSent.tools as Json[],
      (tool) => (tool.function as Json).name,
    );
    assert.deepEqual(firstSent.tool_choice, { type: "function", function: { name: shortName } });

    await echoRig.anthropic.messages.create({
      ...params,
      messages: [
        ...params.messages,
        { role: "assistant", content: message.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "none" }] },
      ],
    });
    const sent = lastRequest(scripted).body as {
      messages: Array<{ tool_calls?: Array<{ function: Json }> }>;
    };
    assert.equal(sent.messages[1]!.tool_calls![0]!.function.name, shortName);
  });
}

Deno.test({
  name: "translation tools: close",
  fn: async () => {
    await rig.close();
    await echoRig.close();
    await recorded.close();
    await scripted.close();
  },
});
