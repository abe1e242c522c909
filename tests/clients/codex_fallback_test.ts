/**
 * The real Codex CLI on a Claude model whose Anthropic deployments are both down (one refuses
 * connections, one answers 529 `overloaded_error`): gatehouse falls back to the GPT model behind
 * an OpenAI Responses upstream, and Codex completes its shell round trip without noticing
 * (issue #16). Codex speaks only the Responses API; the fallback answers it passthrough.
 * @module
 */
import assert from "node:assert/strict";
import { clientTest, realClients } from "./real_clients.ts";
import { runCodexCat, startProxyTrap } from "./codex_home.ts";
import { assertFellBack, CLAUDE, GPT, startFallbackRig } from "./fallback_rig.ts";

async function fallsBackToGpt(codex: string) {
  const rig = await startFallbackRig("responses");
  const trap = startProxyTrap();
  const home = await Deno.makeTempDir({ prefix: "gatehouse-codex-fallback-" });
  try {
    const { run, secret } = await runCodexCat(codex, {
      home,
      model: CLAUDE,
      gatewayUrl: rig.url,
      key: rig.h.key,
      trapEnv: trap.env,
      secretPrefix: "the lighthouse keeper fell back",
      timeoutMs: 120_000,
    });
    assert.equal(run.code, 0, `codex exited ${run.code}: ${run.stderr}\n${run.stdout}`);
    type Item = { type: string; text?: string; aggregated_output?: string };
    const events = run.stdout.split("\n").filter((line) => line.trim() !== "").map((line) =>
      JSON.parse(line) as { type: string; item?: Item }
    );
    const items = events.flatMap((e) => e.type === "item.completed" && e.item ? [e.item] : []);
    const command = items.find((item) => item.type === "command_execution");
    assert.equal(command?.aggregated_output, `${secret}\nsecond line\n`, run.stdout);
    const answer = items.filter((item) => item.type === "agent_message").at(-1);
    assert.match(answer?.text ?? "", /^Tool said: /, run.stdout);
    assert.equal(events.at(-1)?.type, "turn.completed");

    // Both turns reached the GPT upstream on its own wire; Claude's deployments saw no success.
    const kinds = rig.openai.steps.map((s) => [s.wire, s.step.kind]);
    assert.deepEqual(kinds, [["responses", "tool_call"], ["responses", "text"]]);
    const posts = rig.openai.requests.filter((r) => r.method === "POST");
    assert.ok(posts.every((r) => r.path === "/v1/responses"), `${posts.map((r) => r.path)}`);
    assert.deepEqual(posts.map((r) => (r.body as { model?: string }).model), [GPT, GPT]);

    const rows = rig.h.rows.filter((r) => r.route === "/v1/responses");
    assert.equal(rows.length, 2, `one ledger row per request: ${JSON.stringify(rows)}`);
    for (const row of rows) assertFellBack(row, "/v1/responses");
    assert.deepEqual(trap.attempts, [], "Codex tried to reach the network");
  } finally {
    await trap.close();
    await rig.close();
    await Deno.remove(home, { recursive: true });
  }
}

const clients = await realClients();
clientTest(
  clients,
  "Codex, both Anthropic deployments of its Claude model down: the GPT fallback finishes the round trip",
  ({ codex }) => fallsBackToGpt(codex),
);
