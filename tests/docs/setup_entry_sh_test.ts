/**
 * The `sh` entry points as users run them — `curl -fsSL {docs}/setup/<client>.sh | sh -s -- ...`
 * — with node, with only deno, and with neither.
 */
import assert from "node:assert/strict";
import { runCommand, startDocsEnv } from "./docs_env.ts";

function which(name: string): string | null {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      const path = `${dir}/${name}`;
      if (Deno.statSync(path).isFile) return path;
    } catch {
      continue;
    }
  }
  return null;
}

const curl = which("curl");
const missing = curl === null
  ? " — SKIPPED: curl is not installed, so the one-liner cannot run"
  : "";

/** A PATH holding only the named tools (symlinks), to hide node or deno. */
async function pathWith(tools: string[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse-path-" });
  for (const tool of tools) {
    const target = which(tool);
    if (target) await Deno.symlink(target, `${dir}/${tool}`);
  }
  return dir;
}

Deno.test({
  name: `curl | sh runs the served script with node and configures Codex${missing}`,
  ignore: curl === null,
  fn: async () => {
    const env = await startDocsEnv();
    try {
      const run = await runCommand("sh", [
        "-c",
        `curl -fsSL ${env.docs}/setup/codex.sh | sh -s -- --key "$1"`,
        "sh",
        env.key,
      ], {
        env: { HOME: env.home },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /gatehouse set-up for Codex/);
      assert.match(run.stdout, /✓ live check: POST \/v1\/responses/);
      assert.match(
        await Deno.readTextFile(`${env.home}/.codex/config.toml`),
        new RegExp(`base_url = "${env.api}"`),
      );
      const help = await runCommand("sh", [
        "-c",
        `curl -fsSL ${env.docs}/setup/claude-code.sh | sh -s -- --help`,
      ], {
        env: { HOME: env.home },
      });
      assert.equal(help.code, 0, help.stderr);
      assert.ok(help.stdout.includes(`else ${env.api})`), help.stdout);
    } finally {
      await env.close();
    }
  },
});

Deno.test({
  name: `without node the entry point falls back to deno; without either it says so${missing}`,
  ignore: curl === null || which("deno") === null,
  fn: async () => {
    const env = await startDocsEnv();
    const denoOnly = await pathWith(["sh", "curl", "mktemp", "rm", "deno"]);
    const neither = await pathWith(["sh", "curl", "mktemp", "rm"]);
    try {
      const script = `${env.home}/zed.sh`;
      await Deno.writeTextFile(script, await env.served("zed.sh"));
      const withDeno = await runCommand("sh", [script, "--key", env.key], {
        env: {
          HOME: env.home,
          PATH: denoOnly,
          DENO_DIR: `${denoOnly}/deno-dir`,
          DENO_NO_UPDATE_CHECK: "1",
        },
      });
      assert.equal(withDeno.code, 0, withDeno.stderr);
      assert.match(withDeno.stdout, /gatehouse set-up for Zed/);
      assert.match(
        await Deno.readTextFile(`${env.home}/.config/zed/settings.json`),
        /"openai_compatible"/,
      );
      const without = await runCommand("sh", [script, "--key", env.key], {
        env: { HOME: env.home, PATH: neither },
      });
      assert.equal(without.code, 1);
      assert.match(without.stderr, /needs Node\.js 18 or newer, or Deno/);
    } finally {
      await env.close();
      await Deno.remove(denoOnly, { recursive: true });
      await Deno.remove(neither, { recursive: true });
    }
  },
});
