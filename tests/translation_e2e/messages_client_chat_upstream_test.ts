import { RIG_OPENAI_KEY } from "../rig.ts";
/**
 * A Messages client reading Chat Completions: every recorded chat transcript (OpenAI text,
 * DeepSeek's tool call with `reasoning_content`, xAI's tool call), streamed and not, replayed by
 * the recorded fake as the `openai` provider for a chat-wire catalog model and read through
 * `/v1/messages` by the official `@anthropic-ai/sdk`. Each answer is checked against its file;
 * each request the gateway sent upstream is checked as a chat body.
 */
import assert from "node:assert/strict";
import type Anthropic from "@anthropic-ai/sdk";
import { startRecordedUpstream } from "../fakes/recorded_upstream.ts";
import { fixtureKinds, listFixtures } from "../fakes/fixtures.ts";
import { lastRequest, startRig, warningsOf } from "./helpers.ts";
import { type ChatFacts, chatFacts, chatOutputTokens, STOP_OF_FINISH } from "./transcripts.ts";

/** A catalog model whose provider speaks the chat wire. */
const MODEL = "gpt-5-mini";
const SYSTEM = "You are terse.";

const upstream = startRecordedUpstream();
const rig = await startRig(upstream.url);

function request() {
  return {
    model: MODEL,
    max_tokens: 256,
    system: SYSTEM,
    messages: [{ role: "user" as const, content: "Hi" }],
  };
}

/** The block types a chat answer must become: reasoning, then text, then the tool calls. */
function expectedTypes(facts: ChatFacts): string[] {
  return [
    ...(facts.reasoning ? ["thinking"] : []),
    ...(facts.text ? ["text"] : []),
    ...facts.calls.map(() => "tool_use"),
  ];
}

function checkAnswer(message: Anthropic.Message, facts: ChatFacts) {
  assert.equal(message.model, MODEL);
  assert.equal(message.role, "assistant");
  // Gatehouse's own id, never derived from the upstream's (which may repeat).
  assert.match(message.id, /^msg_[0-9a-z]{24}$/);
  assert.ok(!message.id.includes(facts.id), `${message.id} must not carry ${facts.id}`);
  assert.deepEqual(message.content.map((block) => block.type), expectedTypes(facts));
  const text = message.content.flatMap((block) => block.type === "text" ? [block.text] : []);
  assert.equal(text.join(""), facts.text);
  const thinking = message.content.flatMap((b) => b.type === "thinking" ? [b.thinking] : []);
  assert.equal(thinking.join(""), facts.reasoning);
  const calls = message.content.flatMap((block) =>
    block.type === "tool_use" ? [{ id: block.id, name: block.name, input: block.input }] : []
  );
  assert.deepEqual(
    calls,
    facts.calls.map((call) => ({
      id: call.id,
      name: call.name,
      input: JSON.parse(call.arguments),
    })),
  );
  assert.equal(message.stop_reason, STOP_OF_FINISH[facts.finishReason]);
  const u = facts.usage;
  assert.equal(message.usage.input_tokens, u.prompt - u.cached);
  assert.equal(message.usage.cache_read_input_tokens, u.cached);
  assert.equal(message.usage.cache_creation_input_tokens ?? 0, 0);
  assert.equal(message.usage.output_tokens, chatOutputTokens(u));
}

/** What the gateway sent upstream: a chat body. */
function checkSent(stream: boolean) {
  const sent = lastRequest(upstream);
  assert.equal(sent.path, "/v1/chat/completions");
  assert.equal(sent.headers["authorization"], `Bearer ${RIG_OPENAI_KEY}`);
  const body = sent.body as Record<string, unknown>;
  assert.equal(body.model, MODEL);
  assert.deepEqual(body.messages, [
    { role: "system", content: SYSTEM },
    { role: "user", content: "Hi" },
  ]);
  assert.equal(body.max_completion_tokens, 256);
  assert.equal(body.max_tokens, undefined);
  assert.equal(body.stream, stream);
  if (stream) assert.deepEqual(body.stream_options, { include_usage: true });
  else assert.equal(body.stream_options, undefined);
}

for (const name of await listFixtures("openai-chat")) {
  const kinds = await fixtureKinds("openai-chat", name);
  if (kinds.chunks) {
    Deno.test(`messages client, chat upstream, streamed: ${name}`, async () => {
      upstream.use({ folder: "openai-chat", name, stream: true });
      const message = await rig.anthropic.messages.stream(request()).finalMessage();
      checkAnswer(message, await chatFacts(name, true));
      checkSent(true);
    });
  }
  if (kinds.json) {
    Deno.test(`messages client, chat upstream, not streamed: ${name}`, async () => {
      upstream.use({ folder: "openai-chat", name, stream: false });
      const message = await rig.anthropic.messages.create(request());
      checkAnswer(message, await chatFacts(name, false));
      checkSent(false);
    });
  }
}

Deno.test("messages client, chat upstream: cache_control on a system block is named in x-gatehouse-warnings", async () => {
  const body = {
    ...request(),
    system: [{ type: "text", text: SYSTEM, cache_control: { type: "ephemeral" } }],
  };
  upstream.use({ folder: "openai-chat", name: "openai-text", stream: false });
  const plain = await rig.post("/v1/messages", body);
  assert.equal(plain.status, 200);
  assert.ok(warningsOf(plain).some((w) => w.field.includes("cache_control")));
  await plain.body?.cancel();
  const sent = lastRequest(upstream).body as { messages: unknown[] };
  assert.deepEqual(sent.messages[0], { role: "system", content: SYSTEM });

  upstream.use({ folder: "openai-chat", name: "openai-text", stream: true });
  const streamed = await rig.post("/v1/messages", { ...body, stream: true });
  assert.equal(streamed.status, 200);
  assert.ok(warningsOf(streamed).some((w) => w.field.includes("cache_control")));
  await streamed.body?.cancel();
});

Deno.test("messages client, chat upstream: a request whose fields all translate has no warnings header", async () => {
  upstream.use({ folder: "openai-chat", name: "openai-text", stream: false });
  const response = await rig.post("/v1/messages", request());
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("x-gatehouse-warnings"), null);
  await response.body?.cancel();
});

Deno.test({
  name: "messages client, chat upstream: close",
  fn: async () => {
    await rig.close();
    await upstream.close();
  },
});
