/**
 * Cases no recording holds, derived from recorded transcripts by changing only how they end or
 * what they count: cut at the output limit (Anthropic `max_tokens`, chat `length`, Responses
 * `incomplete`), an Anthropic `error` event in mid-stream, a stream that stops before its last
 * event, and a Responses usage with cached tokens. Checks the status / stop reason and usage each
 * client sees, and that a Responses stream still ends with exactly one terminal event carrying
 * the code Codex routes on.
 * @module
 */
import assert from "node:assert/strict";
import { startFakeServer } from "../fakes/fake_server.ts";
import { type FixtureFolder, loadChunks, loadJson } from "../fakes/fixtures.ts";
import { jsonReply, sseReply } from "../fakes/replies.ts";
import { sseReplayStream, type SseWire } from "../fakes/sse_replay.ts";
import { recordedBody, recordedStream } from "./recorded_responses.ts";
import { recordedAnthropic, recordedChat } from "./recorded_turns.ts";
import { readRawEvents, startRig } from "./rig.ts";
import { checkStreamShape } from "./stream_shape.ts";

type Obj = Record<string, unknown>;
type Answer = { wire: SseWire; lines: string[] } | { body: unknown };

let answer: Answer | undefined;
const upstream = startFakeServer("derived upstream", () => {
  if (answer === undefined) return jsonReply({ error: { message: "no answer set" } }, 500);
  return "body" in answer
    ? jsonReply(answer.body)
    : sseReply(sseReplayStream(answer.wire, answer.lines));
});
const rig = await startRig(upstream.url);

/** A recorded stream with `edit` applied to each of its parsed events. */
async function derivedLines(
  folder: FixtureFolder,
  name: string,
  edit: (event: Obj) => Obj,
): Promise<string[]> {
  const lines = await loadChunks(folder, name);
  return lines.map((line) => JSON.stringify(edit(JSON.parse(line) as Obj)));
}

async function rawResponsesStream(model: string): Promise<Obj> {
  const r = await rig.post("/v1/responses", { model, input: "Go ahead.", stream: true });
  assert.equal(r.status, 200);
  return checkStreamShape(await readRawEvents(r));
}

Deno.test("Anthropic max_tokens → Responses incomplete (max_output_tokens), streamed and not", async () => {
  const lines = await derivedLines(
    "anthropic-messages",
    "anthropic-text",
    (e) =>
      e.type === "message_delta"
        ? { ...e, delta: { ...(e.delta as Obj), stop_reason: "max_tokens" } }
        : e,
  );
  answer = { wire: "anthropic", lines };
  const terminal = await rawResponsesStream("claude-sonnet-5");
  assert.equal(terminal.status, "incomplete");
  assert.deepEqual(terminal.incomplete_details, { reason: "max_output_tokens" });
  const streamed = await rig.openai.responses
    .stream({ model: "claude-sonnet-5", input: "Go ahead." })
    .finalResponse();
  assert.equal(streamed.status, "incomplete");
  assert.equal(streamed.output_text, (await recordedAnthropic("anthropic-text", true)).text);
  const body = await loadJson("anthropic-messages", "anthropic-text") as Obj;
  answer = { body: { ...body, stop_reason: "max_tokens" } };
  const plain = await rig.openai.responses.create({ model: "claude-sonnet-5", input: "Go ahead." });
  assert.equal(plain.status, "incomplete");
  assert.equal(plain.incomplete_details?.reason, "max_output_tokens");
});

Deno.test("chat finish_reason length → Responses incomplete (max_output_tokens)", async () => {
  const lines = await derivedLines("openai-chat", "openai-text", (e) => {
    const choices = e.choices as Obj[];
    const choice = choices[0];
    if (choice?.finish_reason !== "stop") return e;
    return { ...e, choices: [{ ...choice, finish_reason: "length" }] };
  });
  answer = { wire: "chat", lines };
  const terminal = await rawResponsesStream("gpt-5");
  assert.equal(terminal.status, "incomplete");
  assert.deepEqual(terminal.incomplete_details, { reason: "max_output_tokens" });
  const usage = terminal.usage as Obj;
  assert.equal(usage.output_tokens, (await recordedChat("openai-text", true)).usage.output);
});

Deno.test("Responses incomplete → Messages max_tokens and chat length", async () => {
  const lines = await derivedLines(
    "openai-responses",
    "openai-shell-local-multiturn.1",
    (e) =>
      e.type === "response.completed"
        ? {
          ...e,
          type: "response.incomplete",
          response: {
            ...(e.response as Obj),
            status: "incomplete",
            incomplete_details: { reason: "max_output_tokens" },
          },
        }
        : e,
  );
  answer = { wire: "responses", lines };
  const message = await rig.anthropic.messages
    .stream({ model: "gpt-5.5", max_tokens: 50, messages: [{ role: "user", content: "Hi" }] })
    .finalMessage();
  assert.equal(message.stop_reason, "max_tokens");
  const recorded = await recordedStream("openai-shell-local-multiturn.1");
  assert.deepEqual(message.content, [{ type: "text", text: recorded.text }]);
  const completion = await rig.openai.chat.completions
    .stream({ model: "gpt-5.5", messages: [{ role: "user", content: "Hi" }] })
    .finalChatCompletion();
  assert.equal(completion.choices[0]?.finish_reason, "length");
});

/** Anthropic error types mid-stream → the `response.failed` code a Responses client routes on
 * (the issue: `rate_limit_exceeded`, `server_error`, `context_length_exceeded`, ...). */
const FAILED_CODES: Array<{ type: string; code: string }> = [
  { type: "rate_limit_error", code: "rate_limit_exceeded" },
  { type: "overloaded_error", code: "server_error" },
  { type: "api_error", code: "server_error" },
];

for (const { type, code } of FAILED_CODES) {
  Deno.test(`an Anthropic ${type} event mid-stream → one response.failed with code ${code}`, async () => {
    const recorded = await loadChunks("anthropic-messages", "anthropic-text");
    const error = { type: "error", error: { type, message: `upstream said ${type}` } };
    // The recorded start and first text deltas, then the error instead of the rest.
    answer = { wire: "anthropic", lines: [...recorded.slice(0, 5), JSON.stringify(error)] };
    const terminal = await rawResponsesStream("claude-sonnet-5");
    assert.equal(terminal.status, "failed");
    const failure = terminal.error as { code: string; message: string };
    assert.match(failure.message, new RegExp(`upstream said ${type}`));
    assert.equal(failure.code, code, `response.error.code for Anthropic ${type}`);
  });
}

Deno.test("an Anthropic stream cut before message_stop → one response.failed, also in the SDK", async () => {
  const recorded = await loadChunks("anthropic-messages", "anthropic-text");
  answer = { wire: "anthropic", lines: recorded.slice(0, -2) };
  const terminal = await rawResponsesStream("claude-sonnet-5");
  assert.equal(terminal.status, "failed");
  assert.equal((terminal.error as { code: string }).code, "server_error");
  // The SDK hands back a failed response as the final one; the client must see the failure.
  const final = await rig.openai.responses
    .stream({ model: "claude-sonnet-5", input: "Hi" })
    .finalResponse();
  assert.equal(final.status, "failed");
  assert.equal(final.error?.code, "server_error");
});

Deno.test("a chat upstream's in-stream error → one response.failed", async () => {
  const recorded = await loadChunks("openai-chat", "openai-text");
  const error = {
    error: { message: "The server had an error", type: "server_error", param: null, code: null },
  };
  answer = { wire: "chat", lines: [...recorded.slice(0, 4), JSON.stringify(error)] };
  const terminal = await rawResponsesStream("gpt-5");
  assert.equal(terminal.status, "failed");
  assert.equal((terminal.error as { code: string }).code, "server_error");
});

Deno.test("Responses cached and reasoning tokens → Messages and chat usage", async () => {
  const body = await loadJson("openai-responses", "openai-reasoning-encrypted-content.1") as Obj;
  const usage = body.usage as Obj & { input_tokens: number };
  // The recording has no cache hit; half of its input is marked cached.
  const cached = Math.floor(usage.input_tokens / 2);
  answer = {
    body: { ...body, usage: { ...usage, input_tokens_details: { cached_tokens: cached } } },
  };
  const recorded = await recordedBody("openai-reasoning-encrypted-content.1");
  const message = await rig.anthropic.messages.create({
    model: "gpt-5.5",
    max_tokens: 500,
    messages: [{ role: "user", content: "Hi" }],
  });
  assert.equal(message.usage.input_tokens, recorded.usage.input - cached);
  assert.equal(message.usage.cache_read_input_tokens, cached);
  assert.equal(message.usage.output_tokens, recorded.usage.output);
  const completion = await rig.openai.chat.completions.create({
    model: "gpt-5.5",
    messages: [{ role: "user", content: "Hi" }],
  });
  assert.equal(completion.usage?.prompt_tokens, recorded.usage.input);
  assert.equal(completion.usage?.prompt_tokens_details?.cached_tokens, cached);
  assert.equal(
    completion.usage?.completion_tokens_details?.reasoning_tokens,
    recorded.usage.reasoning,
  );
});

Deno.test({
  name: "derived cases: close",
  fn: async () => {
    await rig.close();
    await upstream.close();
  },
});
