/**
 * Issue #16: the real Claude Code CLI asks for a Claude model while both of its Anthropic
 * deployments are down (one refuses connections, one answers 529 `overloaded_error`); the
 * gateway falls back to the model's GPT fallback, translating Claude Code's Anthropic requests to
 * the OpenAI wire, and Claude Code completes its tool round trip (Read a file, send the result
 * back, answer with its first line) without noticing (see `fallback_rig.ts`).
 *
 * A direct `/v1/messages` call on the same set-up checks the `x-gatehouse-served-model` header,
 * which Claude Code does not print; it needs no client and always runs.
 * @module
 */
import assert from "node:assert/strict";
import { clientTest, realClients } from "./real_clients.ts";
import { runClaudeRead } from "./claude_run.ts";
import {
  assertFellBack,
  CLAUDE,
  type FallbackRig,
  GPT,
  type OpenaiWire,
  OVERLOADED,
  startFallbackRig,
} from "./fallback_rig.ts";

/** Every model slot Claude Code may use (main, small/fast, subagent) set to the Claude model. */
const SLOTS = {
  ANTHROPIC_MODEL: CLAUDE,
  ANTHROPIC_DEFAULT_OPUS_MODEL: CLAUDE,
  ANTHROPIC_DEFAULT_SONNET_MODEL: CLAUDE,
  ANTHROPIC_DEFAULT_HAIKU_MODEL: CLAUDE,
  ANTHROPIC_SMALL_FAST_MODEL: CLAUDE,
  CLAUDE_CODE_SUBAGENT_MODEL: CLAUDE,
};

/** Asserts the overloaded Anthropic fake was called on the Messages API and that the OpenAI
 * upstream received only translated requests for the fallback, on `rig.openaiPath`. */
function assertUpstreams(rig: FallbackRig, wire: OpenaiWire): void {
  const anthropic = rig.overloaded.requests.map((r) => `${r.method} ${r.path}`);
  assert.ok(anthropic.length > 0, "the overloaded Anthropic deployment was never tried");
  assert.ok(anthropic.every((r) => r === "POST /v1/messages"), `anthropic-b saw ${anthropic}`);
  const openai = rig.openai.requests.filter((r) => r.method === "POST");
  assert.ok(openai.length > 0, "the OpenAI upstream received nothing");
  assert.deepEqual(
    [...new Set(openai.map((r) => `${r.path} ${(r.body as { model?: string }).model}`))],
    [`${rig.openaiPath} ${GPT}`],
  );
  assert.deepEqual([...new Set(rig.openai.steps.map((s) => s.wire))], [wire]);
}

/** The text of an Anthropic answer: a Message's text blocks, or a finished stream's text
 * deltas. */
function answerOf(body: string, stream: boolean): string {
  if (!stream) {
    const message = JSON.parse(body) as { type: string; content: { text?: string }[] };
    assert.equal(message.type, "message");
    return message.content.map((block) => block.text ?? "").join("");
  }
  const events = body.split("\n").filter((line) => line.startsWith("data: ")).map((line) =>
    JSON.parse(line.slice(6)) as { type: string; delta?: { type: string; text?: string } }
  );
  assert.equal(events.at(-1)?.type, "message_stop", body);
  return events.map((e) => e.delta?.type === "text_delta" ? e.delta.text : "").join("");
}

async function fallsBackToGpt(claude: string, wire: OpenaiWire) {
  const rig = await startFallbackRig(wire);
  const home = await Deno.makeTempDir({ prefix: "gatehouse-claude-fallback-" });
  try {
    const { run, secret } = await runClaudeRead(claude, {
      home,
      gatewayUrl: rig.url,
      key: rig.h.key,
      secretPrefix: "the lighthouse keeper fell back",
      env: SLOTS,
      timeoutMs: 90_000,
    });

    assert.equal(run.code, 0, `claude exited ${run.code}: ${run.stderr}\n${run.stdout}`);
    // The scripted GPT model's answer, after it called Read and got the file back.
    assert.match(run.stdout, new RegExp(`Tool said: .*${secret}`));
    const kinds = rig.openai.steps.map((s) => s.step.kind);
    assert.deepEqual(kinds, ["tool_call", "text"], `the GPT upstream's steps: ${kinds}`);

    const rows = rig.h.rows.filter((r) => r.route === "/v1/messages");
    assert.equal(rows.length, kinds.length, `one ledger row per request: ${JSON.stringify(rows)}`);
    rows.forEach((row) => assertFellBack(row));
    assert.ok(rows.every((r) => r.stream), "Claude Code streams");
    assertUpstreams(rig, wire);
  } finally {
    await rig.close();
    await Deno.remove(home, { recursive: true });
  }
}

const clients = await realClients();
clientTest(
  clients,
  "Claude Code, both Anthropic deployments down: the GPT fallback (chat wire) finishes the round trip",
  ({ claude }) => fallsBackToGpt(claude, "chat"),
);
clientTest(
  clients,
  "Claude Code, both Anthropic deployments down: the GPT fallback (Responses wire) finishes the round trip",
  ({ claude }) => fallsBackToGpt(claude, "responses"),
);

Deno.test("direct /v1/messages on the same set-up: x-gatehouse-served-model names the fallback", async () => {
  const rig = await startFallbackRig("chat");
  try {
    for (const stream of [false, true]) {
      const response = await fetch(`${rig.url}/v1/messages`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${rig.h.key}`,
          "anthropic-version": "2023-06-01",
          "content-type": "application/json",
        },
        body: JSON.stringify({
          model: CLAUDE,
          max_tokens: 64,
          stream,
          messages: [{ role: "user", content: "ping the lighthouse" }],
        }),
      });
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.equal(response.headers.get("x-gatehouse-served-model"), GPT);
      assert.ok(!text.includes(OVERLOADED.error.type), `the 529's body leaked: ${text}`);
      assert.equal(answerOf(text, stream), "You said: ping the lighthouse", text);
    }
    const rows = rig.h.rows;
    assert.equal(rows.length, 2);
    rows.forEach((row) => assertFellBack(row));
    assertUpstreams(rig, "chat");
  } finally {
    await rig.close();
  }
});
