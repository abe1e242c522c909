/**
 * The mappings no recorded transcript exercises, with scripted provider answers: every stop
 * reason, prompt-cache counts in usage, several text and thinking blocks, and parallel tool
 * calls, each streamed and not (the two paths must agree).
 */
import assert from "node:assert/strict";
import type OpenAI from "openai";
import type Anthropic from "@anthropic-ai/sdk";
import { lastRequest, startRig, startScriptedUpstream } from "./helpers.ts";
import { FINISH_OF_STOP, STOP_OF_FINISH } from "./transcripts.ts";
import {
  anthropicAnswer,
  type AnthropicScript,
  chatAnswer,
  type ChatScript,
} from "./scripted_answers.ts";

const CLAUDE = "claude-sonnet-5";
const GPT = "gpt-5";

const upstream = startScriptedUpstream();
const rig = await startRig(upstream.url);

type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;
type Json = Record<string, unknown>;

/** Asks a Claude model through chat; the scripted upstream answers `script`. */
async function viaChat(script: AnthropicScript, stream: boolean) {
  upstream.answer((request) => anthropicAnswer(request.body as Json, script));
  const params = {
    model: CLAUDE,
    max_completion_tokens: 256,
    messages: [{ role: "user" as const, content: "Hi" }],
  };
  if (!stream) {
    const completion = await rig.openai.chat.completions.create(params);
    const message = completion.choices[0]!.message as typeof completion.choices[0]["message"] & {
      reasoning_content?: string;
    };
    return { completion, reasoning: message.reasoning_content ?? "" };
  }
  const runner = rig.openai.chat.completions.stream({
    ...params,
    stream_options: { include_usage: true },
  });
  const chunks: Chunk[] = [];
  runner.on("chunk", (chunk) => chunks.push(chunk));
  const completion = await runner.finalChatCompletion();
  const reasoning = chunks.map((chunk) =>
    (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ??
      ""
  ).join("");
  return { completion, reasoning };
}

/** Asks a chat-wire GPT model through Messages; the scripted upstream answers `script`. */
function viaMessages(script: ChatScript, stream: boolean): Promise<Anthropic.Message> {
  upstream.answer((request) => chatAnswer(request.body as Json, script));
  const params = {
    model: GPT,
    max_tokens: 256,
    messages: [{ role: "user" as const, content: "Hi" }],
  };
  return stream
    ? rig.anthropic.messages.stream(params).finalMessage()
    : rig.anthropic.messages.create(params);
}

const SMALL_USAGE = { input_tokens: 10, output_tokens: 5 };

for (const stream of [false, true]) {
  const how = stream ? "streamed" : "not streamed";

  for (const stopReason of Object.keys(FINISH_OF_STOP)) {
    Deno.test(
      `chat client, Anthropic upstream, ${how}: stop_reason ${stopReason} → finish_reason ${
        FINISH_OF_STOP[stopReason]
      }`,
      async () => {
        const blocks: AnthropicScript["blocks"] = stopReason === "tool_use"
          ? [{ type: "tool_use", id: "toolu_01Stop", name: "lookup", input: {} }]
          : stopReason === "refusal"
          ? []
          : [{ type: "text", text: "Done" }];
        const { completion } = await viaChat({ blocks, stopReason, usage: SMALL_USAGE }, stream);
        assert.equal(completion.choices[0]!.finish_reason, FINISH_OF_STOP[stopReason]);
      },
    );
  }

  for (const finishReason of Object.keys(STOP_OF_FINISH)) {
    Deno.test(
      `messages client, chat upstream, ${how}: finish_reason ${finishReason} → stop_reason ${
        STOP_OF_FINISH[finishReason]
      }`,
      async () => {
        const script: ChatScript = finishReason === "tool_calls"
          ? {
            calls: [{ id: "call_stop", name: "lookup", arguments: "{}" }],
            finishReason,
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          }
          : {
            content: "Done",
            finishReason,
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          };
        const message = await viaMessages(script, stream);
        assert.equal(message.stop_reason, STOP_OF_FINISH[finishReason]);
      },
    );
  }

  Deno.test(`chat client, Anthropic upstream, ${how}: prompt_tokens counts cache reads and writes; cached_tokens is the reads`, async () => {
    const usage = {
      input_tokens: 10,
      output_tokens: 7,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 20,
    };
    const { completion } = await viaChat({
      blocks: [{ type: "text", text: "Cached" }],
      stopReason: "end_turn",
      usage,
    }, stream);
    assert.equal(completion.usage?.prompt_tokens, 130);
    assert.equal(completion.usage?.completion_tokens, 7);
    assert.equal(completion.usage?.total_tokens, 137);
    assert.equal(completion.usage?.prompt_tokens_details?.cached_tokens, 100);
  });

  Deno.test(`messages client, chat upstream, ${how}: input_tokens leaves out cached_tokens, reported as cache reads`, async () => {
    const message = await viaMessages({
      content: "Cached",
      finishReason: "stop",
      usage: {
        prompt_tokens: 130,
        completion_tokens: 7,
        total_tokens: 137,
        prompt_tokens_details: { cached_tokens: 100 },
      },
    }, stream);
    assert.equal(message.usage.input_tokens, 30);
    assert.equal(message.usage.cache_read_input_tokens, 100);
    assert.equal(message.usage.output_tokens, 7);
  });

  Deno.test(`chat client, Anthropic upstream, ${how}: interleaved thinking and text blocks join with a blank line; parallel tool calls keep their order`, async () => {
    const calls = [
      { type: "tool_use" as const, id: "toolu_01First", name: "lookup", input: { q: "a" } },
      { type: "tool_use" as const, id: "toolu_01Second", name: "fetch", input: { url: "b" } },
    ];
    const { completion, reasoning } = await viaChat({
      blocks: [
        { type: "thinking", thinking: "Plan A." },
        { type: "text", text: "First." },
        { type: "thinking", thinking: "Plan B." },
        { type: "text", text: "Second." },
        ...calls,
      ],
      stopReason: "tool_use",
      usage: SMALL_USAGE,
    }, stream);
    const message = completion.choices[0]!.message;
    assert.equal(message.content, "First.\n\nSecond.");
    assert.equal(reasoning, "Plan A.\n\nPlan B.");
    assert.deepEqual(
      (message.tool_calls ?? []).map((call) =>
        call.type === "function"
          ? { id: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) }
          : call
      ),
      calls.map(({ id, name, input }) => ({ id, name, input })),
    );
  });

  Deno.test(`messages client, chat upstream, ${how}: reasoning, text and parallel tool calls become thinking, text and tool_use blocks`, async () => {
    const calls = [
      { id: "call_first", name: "lookup", arguments: '{"q":"a"}' },
      { id: "call_second", name: "fetch", arguments: '{"url":"b"}' },
    ];
    const message = await viaMessages({
      reasoning: "Plan.",
      content: "Looking.",
      calls,
      finishReason: "tool_calls",
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }, stream);
    assert.deepEqual(message.content.map((block) => block.type), [
      "thinking",
      "text",
      "tool_use",
      "tool_use",
    ]);
    const [thinking, text] = message.content;
    assert.equal(thinking?.type === "thinking" && thinking.thinking, "Plan.");
    assert.equal(text?.type === "text" && text.text, "Looking.");
    assert.deepEqual(
      message.content.flatMap((b) =>
        b.type === "tool_use" ? [{ id: b.id, name: b.name, input: b.input }] : []
      ),
      calls.map((call) => ({ id: call.id, name: call.name, input: JSON.parse(call.arguments) })),
    );
    assert.equal(lastRequest(upstream).path, "/v1/chat/completions");
  });
}

Deno.test({
  name: "translation mappings: close",
  fn: async () => {
    await rig.close();
    await upstream.close();
  },
});
