/**
 * Every recorded OpenAI Responses answer, replayed as the upstream of a Responses-wire catalog
 * model (`gpt-5.5` → `gpt-5.5-large`), read through `/v1/chat/completions` by `openai`:
 * `chat.completions.stream(...).finalChatCompletion()` for each recorded stream and
 * `chat.completions.create` for each recorded body. Content, `reasoning_content` (the reasoning
 * summaries), tool calls (function, custom, local shell as a function, the `parallel` wrapper
 * unpacked), finish reason and usage are checked against the transcript; recorded failures must
 * reach the client as OpenAI errors.
 * @module
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { startRecordedUpstream } from "../fakes/recorded_upstream.ts";
import { fixtureKinds, listFixtures } from "../fakes/fixtures.ts";
import {
  clientCalls,
  recordedBody,
  type RecordedResponse,
  recordedStream,
  recordedStreamCount,
  recordedStreamIsWellFormed,
} from "./recorded_responses.ts";
import { startRig, thrown } from "./rig.ts";

const MODEL = "gpt-5.5";
const UPSTREAM_MODEL = "gpt-5.5-large";

const upstream = startRecordedUpstream();
const rig = await startRig(upstream.url);

/** One user turn, and the tools the transcript calls (custom ones as chat custom tools). */
function request(recorded: RecordedResponse) {
  const tools = new Map<string, ChatCompletionTool>();
  for (const call of clientCalls(recorded)) {
    tools.set(
      call.name,
      call.kind === "custom"
        ? { type: "custom", custom: { name: call.name, description: "free-form input" } }
        : { type: "function", function: { name: call.name, parameters: { type: "object" } } },
    );
  }
  return {
    model: MODEL,
    messages: [{ role: "user" as const, content: "Go ahead." }],
    ...(tools.size > 0 ? { tools: [...tools.values()] } : {}),
  };
}

function checkUpstream(stream: boolean) {
  const sent = upstream.requests.at(-1);
  assert.ok(sent, "the upstream received no request");
  assert.equal(sent.path, "/v1/responses");
  const body = sent.body as { model: string; stream?: boolean };
  assert.equal(body.model, UPSTREAM_MODEL);
  assert.equal(body.stream === true, stream);
}

/** Checks a completion; `reasoning` is the reasoning text as the client assembled it. */
function checkCompletion(
  completion: ChatCompletion,
  reasoning: string | undefined,
  recorded: RecordedResponse,
) {
  const choice = completion.choices[0];
  assert.ok(choice, "one choice");
  const expected = clientCalls(recorded);
  assert.equal(choice.message.content ?? "", recorded.text, "content");
  assert.equal(reasoning ?? "", recorded.reasoning.join("\n\n"), "reasoning_content = summaries");
  const calls = choice.message.tool_calls ?? [];
  assert.equal(calls.length, expected.length, "tool calls");
  expected.forEach((call, i) => {
    const got = calls[i]!;
    if (call.id !== undefined) assert.equal(got.id, call.id);
    else assert.ok(got.id, "an unpacked wrapper call still has an id");
    if (call.kind === "custom") {
      assert.equal(got.type, "custom");
      assert.deepEqual(got.type === "custom" ? got.custom : null, {
        name: call.name,
        input: call.input,
      });
    } else {
      // Local shell calls reach a chat client as a function named local_shell.
      assert.equal(got.type, "function");
      if (got.type !== "function") return;
      assert.equal(got.function.name, call.name);
      assert.deepEqual(JSON.parse(got.function.arguments), call.input, `${call.name} arguments`);
    }
  });
  assert.equal(new Set(calls.map((c) => c.id)).size, calls.length, "tool call ids are distinct");
  const finish = recorded.status === "incomplete"
    ? "length"
    : expected.length > 0
    ? "tool_calls"
    : "stop";
  assert.equal(choice.finish_reason, finish);
  const u = recorded.usage;
  assert.ok(completion.usage, "usage");
  assert.equal(completion.usage.prompt_tokens, u.input, "prompt_tokens includes cached");
  assert.equal(completion.usage.prompt_tokens_details?.cached_tokens, u.cached);
  assert.equal(completion.usage.completion_tokens, u.output);
  assert.equal(completion.usage.completion_tokens_details?.reasoning_tokens, u.reasoning);
  assert.equal(completion.usage.total_tokens, u.input + u.output);
}

function checkError(error: unknown, recorded: RecordedResponse | null) {
  assert.ok(error instanceof OpenAI.APIError, `expected an OpenAI APIError, got ${error}`);
  if (recorded?.error) {
    assert.equal(error.code, recorded.error.code);
    assert.match(error.message, /exceeded your current quota/);
  } else {
    assert.equal(error.code, "stream_incomplete");
    assert.match(error.message, /response\.completed/);
  }
}

/** Reasoning as a DeepSeek-style client reads it: the `reasoning_content` deltas joined (the
 * SDK's snapshot keeps only the last delta of a field it does not know). */
function reasoningOf(chunks: ChatCompletionChunk[]): string {
  return chunks.map((c) =>
    (c.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? ""
  ).join("");
}

for (const name of await listFixtures("openai-responses")) {
  const kinds = await fixtureKinds("openai-responses", name);
  const parts = kinds.chunks ? await recordedStreamCount(name) : 0;
  for (let part = 0; part < parts; part++) {
    const label = parts > 1 ? `${name}#${part}` : name;
    Deno.test(`chat.completions.stream().finalChatCompletion() reads the recorded stream ${label}`, async () => {
      upstream.use({ folder: "openai-responses", name, stream: true, part });
      const recorded = await recordedStream(name, part);
      const chunks: ChatCompletionChunk[] = [];
      const run = () => {
        const stream = rig.openai.chat.completions.stream({
          ...request(recorded),
          stream_options: { include_usage: true },
        });
        stream.on("chunk", (chunk) => chunks.push(chunk));
        return stream.finalChatCompletion();
      };
      if (recorded.error || !(await recordedStreamIsWellFormed(name, part))) {
        checkError(await thrown(run), recorded.error ? recorded : null);
      } else {
        checkCompletion(await run(), reasoningOf(chunks), recorded);
      }
      checkUpstream(true);
    });
  }
  if (!kinds.json) continue;
  Deno.test(`chat.completions.create reads the recorded body ${name}`, async () => {
    upstream.use({ folder: "openai-responses", name, stream: false });
    const sent = upstream.requests.length;
    if (name === "openai-error.1") {
      // A recorded 429 error body (insufficient_quota).
      const error = await thrown(() =>
        rig.openai.chat.completions.create({
          model: MODEL,
          messages: [{ role: "user", content: "Hi" }],
        })
      );
      assert.ok(error instanceof OpenAI.RateLimitError, `got ${error}`);
      assert.equal(error.code, "insufficient_quota");
    } else {
      const recorded = await recordedBody(name);
      const completion = await rig.openai.chat.completions.create(request(recorded));
      const reasoning = (completion.choices[0]?.message as { reasoning_content?: string })
        .reasoning_content;
      checkCompletion(completion, reasoning, recorded);
    }
    assert.equal(upstream.requests.length, sent + 1);
    checkUpstream(false);
  });
}

Deno.test({
  name: "chat client over a Responses upstream: close",
  fn: async () => {
    await rig.close();
    await upstream.close();
  },
});
