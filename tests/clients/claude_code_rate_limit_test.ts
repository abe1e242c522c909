/**
 * Issue #15: the real Claude Code CLI, on a key whose `rpm` window is full when it starts, gets
 * a 429 on its first request, backs off as the refusal says, and still completes its tool round
 * trip (Read a file, send the result back, answer with its first line).
 *
 * The window is filled without waiting a minute (see `rate_limit_rig.ts`): its first request is
 * refused with `retry-after: 2`, the Anthropic rate-limit headers and a `rate_limit_error` body,
 * and the window is empty again 2 s later. Claude Code waits `retry-after` (plus its own jitter)
 * and resends; its next request (the tool result) fits in the fresh window.
 * @module
 */
import assert from "node:assert/strict";
import { startScriptedUpstream } from "../fakes/scripted_upstream.ts";
import { clientTest, realClients } from "./real_clients.ts";
import { runClaudeRead } from "./claude_run.ts";
import { assertBackedOffOnce, startRateLimitRig } from "./rate_limit_rig.ts";

/** Requests per minute: the filled window's size, and room for Claude Code's turns after it. */
const RPM = 3;

async function backsOffAndFinishes(claude: string) {
  const upstream = startScriptedUpstream();
  const rig = await startRateLimitRig(upstream, {
    rpm: RPM,
    filler: {
      path: "/v1/messages",
      body: {
        model: "claude-sonnet-5",
        max_tokens: 16,
        messages: [{ role: "user", content: "fill the window" }],
      },
    },
    trigger: "/v1/messages",
  });
  const home = await Deno.makeTempDir({ prefix: "gatehouse-claude-429-" });
  try {
    const { run, secret } = await runClaudeRead(claude, {
      home,
      gatewayUrl: rig.url,
      key: rig.key,
      secretPrefix: "the lighthouse keeper waited",
      timeoutMs: 60_000,
    });

    assert.equal(
      rig.fillError,
      null,
      `filling the window failed: ${rig.fillError}`,
    );
    assert.equal(
      run.code,
      0,
      `claude exited ${run.code}: ${run.stderr}\n${run.stdout}`,
    );
    assert.match(run.stdout, new RegExp(`Tool said: .*${secret}`));

    const { refused } = assertBackedOffOnce(rig, {
      path: "/v1/messages",
      route: "/v1/messages",
      remainingHeader: "anthropic-ratelimit-requests-remaining",
    });
    assert.equal(
      refused.headers["anthropic-ratelimit-requests-limit"],
      String(RPM),
    );
    const body = JSON.parse(refused.error ?? "null");
    assert.equal(
      body?.type,
      "error",
      `the Anthropic envelope: ${refused.error}`,
    );
    assert.equal(body.error.type, "rate_limit_error");
    assert.match(
      body.error.message,
      new RegExp(`${RPM} requests per minute \\(rpm\\).*Retry in 2 s`),
    );

    // The refusal never reached the upstream: after the filler's steps come exactly the tool
    // call and the answer.
    const kinds = upstream.steps.slice(rig.fillerSteps).map((s) => `${s.wire}:${s.step.kind}`);
    assert.deepEqual(kinds, ["anthropic:tool_call", "anthropic:text"]);
    assert.equal(rig.fillerSteps, RPM);
  } finally {
    await rig.close();
    await upstream.close();
    await Deno.remove(home, { recursive: true });
  }
}

const clients = await realClients();
clientTest(
  clients,
  "Claude Code, rpm window full at start: one 429, waits retry-after, finishes the round trip",
  ({ claude }) => backsOffAndFinishes(claude),
);
