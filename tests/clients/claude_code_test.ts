/**
 * The real Claude Code CLI completes a tool round trip through gatehouse: it asks for a file,
 * the scripted upstream calls its Read tool, Claude Code reads the file locally and sends the
 * result back, and the upstream answers with the file's line.
 */
import assert from "node:assert/strict";
import { listen, makeHarness, upstreamEnv } from "../harness.ts";
import { startScriptedUpstream } from "../fakes/scripted_upstream.ts";
import { clientTest, realClients } from "./real_clients.ts";
import { runClaudeRead } from "./claude_run.ts";

/** `slot` picks the remapped model: sonnet → the previous family (a chat upstream), opus → the
 * flagship tier (a Responses upstream). */
async function roundTrip(
  claude: string,
  mode: "native" | "remapped",
  slot: "sonnet" | "opus" = "sonnet",
) {
  const upstream = startScriptedUpstream();
  const h = await makeHarness({
    demo: false,
    env: upstreamEnv(upstream.url),
  });
  const server = listen(h);
  const home = await Deno.makeTempDir({ prefix: "gatehouse-claude-" });
  try {
    const defaults = h.deps.catalog.setupDefaults;
    const slots: Record<string, string> = mode === "remapped"
      ? {
        ANTHROPIC_DEFAULT_OPUS_MODEL: defaults.flagship,
        ANTHROPIC_DEFAULT_SONNET_MODEL: defaults.previous,
        ANTHROPIC_DEFAULT_HAIKU_MODEL: defaults.previous_mini,
        CLAUDE_CODE_SUBAGENT_MODEL: defaults.previous_mini,
        ANTHROPIC_MODEL: slot,
      }
      : {};
    const { run, secret } = await runClaudeRead(claude, {
      home,
      gatewayUrl: server.url,
      key: h.key,
      secretPrefix: `the lighthouse keeper is ${mode}`,
      env: slots,
    });
    const llmRequests = upstream.requests.filter((r) => r.method === "POST");
    assert.equal(
      run.code,
      0,
      `claude exited ${run.code}: ${run.stderr}\n${run.stdout}`,
    );
    assert.match(run.stdout, new RegExp(secret));
    const wires = new Set(upstream.steps.map((s) => s.wire));
    if (mode === "native") {
      assert.deepEqual([...wires], ["anthropic"]);
      assert.ok(llmRequests.every((r) => r.path === "/v1/messages"));
      assert.ok(
        llmRequests.some((r) => (r.body as { model: string }).model.startsWith("claude-")),
      );
    } else {
      assert.ok(
        !wires.has("anthropic"),
        `remapped traffic must not reach the Anthropic upstream: ${[...wires]}`,
      );
      const models = new Set(
        llmRequests.map((r) => (r.body as { model: string }).model),
      );
      const expected = slot === "opus" ? defaults.flagship : defaults.previous;
      assert.ok(models.has(expected), `upstream saw ${[...models]}`);
      assert.ok(
        wires.has(slot === "opus" ? "responses" : "chat"),
        `wires: ${[...wires]}`,
      );
    }
    const kinds = upstream.steps.map((s) => s.step.kind);
    assert.ok(
      kinds.includes("tool_call") && kinds.includes("text"),
      `steps: ${kinds}`,
    );
  } finally {
    await server.close();
    await upstream.close();
    await h.close();
    await Deno.remove(home, { recursive: true });
  }
}

const clients = await realClients();
clientTest(
  clients,
  "Claude Code, native mode: a Claude model behind the Anthropic upstream",
  ({ claude }) => roundTrip(claude, "native"),
);
clientTest(
  clients,
  "Claude Code, remapped sonnet slot: the previous GPT family behind a chat upstream",
  ({ claude }) => roundTrip(claude, "remapped", "sonnet"),
);
clientTest(
  clients,
  "Claude Code, remapped opus slot: the flagship tier behind a Responses upstream",
  ({ claude }) => roundTrip(claude, "remapped", "opus"),
);
