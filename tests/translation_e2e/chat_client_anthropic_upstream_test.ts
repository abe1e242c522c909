import { RIG_ANTHROPIC_KEY } from "../rig.ts";
/**
 * A Chat Completions client reading Anthropic: every recorded Anthropic transcript, streamed and
 * not, replayed by the recorded fake as the `anthropic` provider and read through
 * `/v1/chat/completions` by the official `openai` SDK. Each answer is checked against its file;
 * each request the gateway sent upstream is checked as an Anthropic body.
 */
import assert from "node:assert/strict";
import type OpenAI from "openai";
import { startRecordedUpstream } from "../fakes/recorded_upstream.ts";
import { fixtureKinds, listFixtures, loadJson } from "../fakes/fixtures.ts";
import { lastRequest, startRig, warningsOf } from "./helpers.ts";
import { type AnthropicFacts, anthropicFacts, FINISH_OF_STOP } from "./transcripts.ts";

/** A Claude catalog model whose upstream id differs from its public id. */
const MODEL = "claude-haiku-4-5";
const UPSTREAM_MODEL = "claude-haiku-4-5-20251001";
const SYSTEM = "You are terse.";

const upstream = startRecordedUpstream();
const rig = await startRig(upstream.url);

type Completion = OpenAI.Chat.Completions.ChatCompletion;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

function request(stream: boolean) {
  return {
    model: MODEL,
    max_completion_tokens: 256,
    messages: [
      { role: "system" as const, content: SYSTEM },
      { role: "user" as const, content: "Hi" },
    ],
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  };
}

/** Tool calls of a chat message as `{id, name, input}`, arguments parsed. */
function callsOf(message: Completion["choices"][number]["message"]) {
  return (message.tool_calls ?? []).map((call) => {
    assert.equal(call.type, "function");
    if (call.type !== "function") throw new Error("unreachable");
    return { id: call.id, name: call.function.name, input: JSON.parse(call.function.arguments) };
  });
}

/** The checks shared by both kinds of answer. */
function checkAnswer(completion: Completion, facts: AnthropicFacts, reasoning: string) {
  const choice = completion.choices[0]!;
  assert.equal(completion.model, MODEL);
  // Gatehouse's own id, never derived from the upstream's (which may repeat).
  assert.match(completion.id, /^chatcmpl-[0-9a-z]{24}$/);
  assert.ok(!completion.id.includes(facts.id), `${completion.id} must not carry ${facts.id}`);
  assert.equal(choice.finish_reason, FINISH_OF_STOP[facts.stopReason]);
  assert.deepEqual(callsOf(choice.message), facts.calls);
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type === "function" && Object.keys(JSON.parse(call.function.arguments)).length === 0) {
      assert.equal(call.function.arguments, "{}");
    }
  }
  assert.equal(reasoning, facts.thinking.join("\n\n"));
  const usage = completion.usage!;
  const u = facts.usage;
  assert.equal(usage.prompt_tokens, u.input + u.cacheRead + u.cacheWrite);
  assert.equal(usage.completion_tokens, u.output);
  assert.equal(usage.total_tokens, u.input + u.cacheRead + u.cacheWrite + u.output);
  assert.equal(usage.prompt_tokens_details?.cached_tokens, u.cacheRead);
  assert.equal(usage.completion_tokens_details?.reasoning_tokens, u.thinking);
}

/** What the gateway sent upstream: an Anthropic Messages body. */
function checkSent(stream: boolean) {
  const sent = lastRequest(upstream);
  assert.equal(sent.path, "/v1/messages");
  assert.equal(sent.headers["x-api-key"], RIG_ANTHROPIC_KEY);
  assert.ok(sent.headers["anthropic-version"]);
  const body = sent.body as Record<string, unknown>;
  assert.equal(body.model, UPSTREAM_MODEL);
  assert.equal(body.max_tokens, 256);
  assert.equal(body.stream, stream);
  assert.deepEqual(body.system, [{ type: "text", text: SYSTEM }]);
  assert.deepEqual(body.messages, [{ role: "user", content: [{ type: "text", text: "Hi" }] }]);
}

for (const name of await listFixtures("anthropic-messages")) {
  const kinds = await fixtureKinds("anthropic-messages", name);
  if (kinds.chunks) {
    Deno.test(`chat client, Anthropic upstream, streamed: ${name}`, async () => {
      upstream.use({ folder: "anthropic-messages", name, stream: true });
      const stream = rig.openai.chat.completions.stream(request(true));
      const chunks: Chunk[] = [];
      stream.on("chunk", (chunk) => chunks.push(chunk));
      const final = await stream.finalChatCompletion();
      const facts = await anthropicFacts(name, true);
      const reasoning = chunks.map((chunk) =>
        (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)
          ?.reasoning_content ?? ""
      ).join("");
      checkAnswer(final, facts, reasoning);
      assert.equal(final.choices[0]!.message.content ?? "", facts.texts.join("\n\n"));
      // The usage chunk the client asked for is the last one, with no choices.
      assert.deepEqual(chunks.at(-1)?.choices, []);
      checkSent(true);
    });
  }
  if (kinds.json) {
    Deno.test(`chat client, Anthropic upstream, not streamed: ${name}`, async () => {
      upstream.use({ folder: "anthropic-messages", name, stream: false });
      const completion = await rig.openai.chat.completions.create(request(false));
      const facts = await anthropicFacts(name, false);
      const message = completion.choices[0]!.message as typeof completion.choices[0]["message"] & {
        reasoning_content?: string;
      };
      checkAnswer(completion, facts, message.reasoning_content ?? "");
      const text = facts.texts.join("\n\n");
      assert.equal(message.content, text || (facts.calls.length > 0 ? null : ""));
      checkSent(false);
    });
  }
}

Deno.test("chat client, Anthropic upstream: a field with no counterpart is named in x-gatehouse-warnings", async () => {
  upstream.use({ folder: "anthropic-messages", name: "anthropic-text", stream: false });
  const plain = await rig.post("/v1/chat/completions", { ...request(false), logprobs: true });
  assert.equal(plain.status, 200);
  assert.ok(warningsOf(plain).some((w) => w.field === "logprobs"));
  await plain.body?.cancel();
  assert.equal((lastRequest(upstream).body as Record<string, unknown>).logprobs, undefined);

  upstream.use({ folder: "anthropic-messages", name: "anthropic-text", stream: true });
  const streamed = await rig.post("/v1/chat/completions", {
    ...request(true),
    stream: true,
    logprobs: true,
  });
  assert.equal(streamed.status, 200);
  assert.ok(warningsOf(streamed).some((w) => w.field === "logprobs"));
  await streamed.body?.cancel();
});

Deno.test("chat client, Anthropic upstream: a request whose fields all translate has no warnings header", async () => {
  upstream.use({ folder: "anthropic-messages", name: "anthropic-text", stream: false });
  const response = await rig.post("/v1/chat/completions", request(false));
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("x-gatehouse-warnings"), null);
  await response.body?.cancel();
});

Deno.test("chat client, Anthropic upstream: a refusal's stop_details explanation is shown or warned about, not dropped silently", async () => {
  upstream.use({ folder: "anthropic-messages", name: "anthropic-refusal", stream: false });
  const before = rig.harness.logs.length;
  const response = await rig.post("/v1/chat/completions", request(false));
  assert.equal(response.status, 200);
  const body = await response.json();
  const recorded = await loadJson("anthropic-messages", "anthropic-refusal") as {
    stop_details: { explanation: string };
  };
  const message = body.choices[0].message as { content: string | null; refusal: string | null };
  const shown = [message.content, message.refusal].some((text) =>
    text?.includes(recorded.stop_details.explanation)
  );
  const header = response.headers.get("x-gatehouse-warnings");
  const warned =
    (header !== null && warningsOf(response).some((w) => /stop_details/.test(w.field))) ||
    rig.harness.logs.slice(before).some((line) => JSON.stringify(line).includes("stop_details"));
  assert.ok(
    shown || warned,
    "the refusal explanation reached neither the client (content/refusal) nor a warning",
  );
});

Deno.test("chat client, Anthropic upstream: no max tokens is filled in upstream and said in a warning", async () => {
  upstream.use({ folder: "anthropic-messages", name: "anthropic-text", stream: false });
  const { max_completion_tokens: _, ...body } = request(false);
  const response = await rig.post("/v1/chat/completions", body);
  assert.equal(response.status, 200);
  await response.body?.cancel();
  const sent = lastRequest(upstream).body as { max_tokens?: unknown };
  assert.equal(typeof sent.max_tokens, "number");
  assert.ok((sent.max_tokens as number) > 0);
  assert.ok(warningsOf(response).some((w) => /max_?tokens|maxOutputTokens/i.test(w.field)));
});

Deno.test({
  name: "chat client, Anthropic upstream: close",
  fn: async () => {
    await rig.close();
    await upstream.close();
  },
});
