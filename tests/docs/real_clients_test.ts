/**
 * The real clients read what the set-up scripts wrote: `claude -p` and `codex exec` (from npm,
 * in tests/clients) complete a request through the gateway with only the written configuration
 * — nothing but HOME and PATH in their environment.
 */
import assert from "node:assert/strict";
import { clientTest, realClients, runClient } from "../clients/real_clients.ts";
import { startDocsEnv } from "./docs_env.ts";

const clients = await realClients();

async function usageRequests(
  env: Awaited<ReturnType<typeof startDocsEnv>>,
): Promise<number> {
  const response = await env.harness.request("/v1/usage", {
    headers: { authorization: `Bearer ${env.key}` },
  });
  return (await response.json()).totals.requests;
}

for (const mode of ["remapped", "native"] as const) {
  clientTest(
    clients,
    `claude -p answers through the gateway from the settings the script wrote (${mode})`,
    async ({ claude }) => {
      const env = await startDocsEnv();
      try {
        const setup = await env.run([
          "claude-code",
          "--mode",
          mode,
          "--key",
          env.key,
        ]);
        assert.equal(setup.code, 0, setup.stderr);
        const before = await usageRequests(env);
        const run = await runClient(
          claude,
          ["-p", "Say hello to the gateway."],
          {
            HOME: env.home,
            // Offline: no telemetry or update checks (CLIENTS.md); not gateway configuration.
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          },
          { cwd: env.home },
        );
        assert.equal(
          run.code,
          0,
          `claude exited ${run.code}: ${run.stderr}\n${run.stdout}`,
        );
        const expected = mode === "remapped"
          ? env.harness.deps.catalog.setupDefaults.previous
          : "claude-";
        assert.match(
          run.stdout,
          new RegExp(`Mock reply from gatehouse \\(model ${expected}`),
        );
        assert.ok(
          await usageRequests(env) > before,
          "the request reached the gateway with the key",
        );
      } finally {
        await env.close();
      }
    },
  );
}

clientTest(
  clients,
  "codex exec answers through the gateway from the config the script wrote",
  async ({ codex }) => {
    const env = await startDocsEnv();
    try {
      const setup = await env.run(["codex", "--key", env.key]);
      assert.equal(setup.code, 0, setup.stderr);
      const before = await usageRequests(env);
      const run = await runClient(codex, [
        "exec",
        "--skip-git-repo-check",
        "Say hello.",
      ], {
        HOME: env.home,
      }, { cwd: env.home });
      assert.equal(
        run.code,
        0,
        `codex exited ${run.code}: ${run.stderr}\n${run.stdout}`,
      );
      const flagship = env.harness.deps.catalog.setupDefaults.flagship;
      assert.match(
        run.stdout,
        new RegExp(`Mock reply from gatehouse \\(model ${flagship}\\)`),
      );
      assert.match(run.stderr, /provider: gatehouse/);
      assert.ok(
        await usageRequests(env) > before,
        "the request reached the gateway with the key",
      );
    } finally {
      await env.close();
    }
  },
);
