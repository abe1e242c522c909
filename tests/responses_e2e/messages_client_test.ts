/**
 * Every recorded OpenAI Responses answer, replayed as the upstream of a Responses-wire catalog
 * model (`gpt-5.5` → `gpt-5.5-large`), read through `/v1/messages` by `@anthropic-ai/sdk`:
 * `messages.stream(...).finalMessage()` for each recorded stream and `messages.create` for each
 * recorded body. Text, thinking (reasoning summaries), tool calls (function, custom, local
 * shell, the `parallel` wrapper unpacked), stop reason and usage are checked against the
 * transcript; recorded failures must reach the client as Anthropic errors.
 * @module
 */
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
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

/** The request: one user turn, and a tool declared for every call the transcript makes. */
function request(recorded: RecordedResponse) {
  const names = [...new Set(clientCalls(recorded).map((c) => c.name))];
  return {
    model: MODEL,
    max_tokens: 1000,
    messages: [{ role: "user" as const, content: "Go ahead." }],
    ...(names.length > 0
      ? {
        tools: names.map((name) => ({
          name,
          description: `the ${name} tool`,
          input_schema: { type: "object" as const },
        })),
      }
      : {}),
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

function checkMessage(message: Anthropic.Message, recorded: RecordedResponse) {
  const texts = message.content.flatMap((b) => b.type === "text" ? [b.text] : []);
  assert.equal(texts.join(""), recorded.text, "text");
  const thinking = message.content.flatMap((b) => b.type === "thinking" ? [b.thinking] : []);
  assert.deepEqual(thinking, recorded.reasoning, "thinking = the reasoning summaries");
  const uses = message.content.flatMap((b) => b.type === "tool_use" ? [b] : []);
  const expected = clientCalls(recorded);
  assert.equal(uses.length, expected.length, "tool_use blocks");
  expected.forEach((call, i) => {
    const use = uses[i]!;
    assert.equal(use.name, call.name);
    if (call.id !== undefined) assert.equal(use.id, call.id);
    else assert.ok(use.id, "an unpacked wrapper call still has an id");
    // A custom (free-form) call arrives as a tool with one string input.
    const input = call.kind === "custom" ? { input: call.input } : call.input;
    assert.deepEqual(use.input, input, `input of ${call.name}`);
  });
  assert.equal(new Set(uses.map((u) => u.id)).size, uses.length, "tool_use ids are distinct");
  const stop = recorded.status === "incomplete"
    ? "max_tokens"
    : expected.length > 0
    ? "tool_use"
    : "end_turn";
  assert.equal(message.stop_reason, stop);
  const u = recorded.usage;
  assert.equal(message.usage.input_tokens, u.input - u.cached, "input_tokens excludes cached");
  assert.equal(message.usage.cache_read_input_tokens, u.cached);
  assert.equal(message.usage.output_tokens, u.output);
  const details = (message.usage as { output_tokens_details?: { thinking_tokens?: number } })
    .output_tokens_details;
  assert.equal(details?.thinking_tokens ?? 0, u.reasoning, "reasoning tokens");
}

function checkError(error: unknown, recorded: RecordedResponse | null) {
  assert.ok(error instanceof Anthropic.APIError, `expected an Anthropic APIError, got ${error}`);
  const body = error.error as { type?: string; error?: { type?: string; message?: string } };
  assert.equal(body.type, "error");
  assert.ok(body.error?.type, "the error event names its type");
  if (recorded?.error) {
    assert.equal(body.error.type, "rate_limit_error", `${recorded.error.code} is a quota error`);
    assert.match(body.error.message ?? "", new RegExp(recorded.error.code));
  } else {
    assert.match(body.error.message ?? "", /response\.completed|incomplete|ended/);
  }
}

for (const name of await listFixtures("openai-responses")) {
  const kinds = await fixtureKinds("openai-responses", name);
  const parts = kinds.chunks ? await recordedStreamCount(name) : 0;
  for (let part = 0; part < parts; part++) {
    const label = parts > 1 ? `${name}#${part}` : name;
    Deno.test(`messages.stream().finalMessage() reads the recorded stream ${label}`, async () => {
      upstream.use({ folder: "openai-responses", name, stream: true, part });
      const recorded = await recordedStream(name, part);
      const run = () =>
        rig.anthropic.messages.stream({ ...request(recorded), stream: true }).finalMessage();
      if (recorded.error || !(await recordedStreamIsWellFormed(name, part))) {
        // openai-error: an error mid-stream; parallel-tool-call-wrapper: two lines are not
        // JSON, its response.completed among them, so the stream never completes.
        checkError(await thrown(run), recorded.error ? recorded : null);
      } else {
        checkMessage(await run(), recorded);
      }
      checkUpstream(true);
    });
  }
  if (!kinds.json) continue;
  Deno.test(`messages.create reads the recorded body ${name}`, async () => {
    upstream.use({ folder: "openai-responses", name, stream: false });
    const sent = upstream.requests.length;
    if (name === "openai-error.1") {
      // A recorded 429 error body (insufficient_quota).
      const error = await thrown(() =>
        rig.anthropic.messages.create({
          model: MODEL,
          max_tokens: 10,
          messages: [{ role: "user", content: "Hi" }],
        })
      );
      assert.ok(error instanceof Anthropic.RateLimitError, `got ${error}`);
      assert.equal((error.error as { error?: { type?: string } }).error?.type, "rate_limit_error");
    } else {
      const recorded = await recordedBody(name);
      checkMessage(await rig.anthropic.messages.create(request(recorded)), recorded);
    }
    assert.equal(upstream.requests.length, sent + 1);
    checkUpstream(false);
  });
}

Deno.test({
  name: "messages client over a Responses upstream: close",
  fn: async () => {
    await rig.close();
    await upstream.close();
  },
});
