/**
 * The key prompt on a real terminal: `script` gives the set-up script a pseudo-terminal; the key
 * typed after the prompt is read without being echoed.
 */
import assert from "node:assert/strict";
import { startDocsEnv } from "./docs_env.ts";

const hasScript = (() => {
  try {
    return Deno.statSync("/usr/bin/script").isFile;
  } catch {
    return false;
  }
})();

Deno.test({
  name: `the hidden prompt reads the key from a terminal without echoing it${
    hasScript ? "" : " — SKIPPED: /usr/bin/script (util-linux) is missing"
  }`,
  ignore: !hasScript,
  fn: async () => {
    const env = await startDocsEnv();
    try {
      const file = `${env.home}/gatehouse-setup.mjs`;
      await Deno.writeTextFile(file, await env.served("gatehouse-setup.mjs"));
      const child = new Deno.Command("/usr/bin/script", {
        args: ["-qec", `node ${file} codex`, "/dev/null"],
        clearEnv: true,
        env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: env.home, TERM: "dumb" },
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        signal: AbortSignal.timeout(60_000),
      }).spawn();
      const decoder = new TextDecoder();
      let seen = "";
      const reader = child.stdout.getReader();
      while (!seen.includes("(input hidden): ")) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += decoder.decode(value);
      }
      const writer = child.stdin.getWriter();
      await writer.write(new TextEncoder().encode(`${env.key}\r`));
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += decoder.decode(value);
      }
      await writer.close().catch(() => {});
      const status = await child.status;
      await child.stderr.cancel();
      assert.equal(status.code, 0, seen);
      assert.match(seen, /key {6}gth_\w+_… \(from the prompt\)/);
      assert.match(seen, /✓ live check: POST \/v1\/responses/);
      assert.ok(!seen.includes(env.key), "the typed key is not echoed");
      const auth = JSON.parse(await Deno.readTextFile(`${env.home}/.codex/auth.json`));
      assert.equal(auth.OPENAI_API_KEY, env.key);
    } finally {
      await env.close();
    }
  },
});
