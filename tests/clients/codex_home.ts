/**
 * What a real Codex run needs offline, shared by the Codex tests: a proxy that refuses every
 * request (so any call Codex makes beyond the gateway is caught and recorded), its
 * `config.toml` naming the gateway as a Responses provider, and the one task the tests give it
 * (cat a file holding a secret line, then say what it printed).
 * @module
 */
import { type ClientRun, runClient } from "./real_clients.ts";

/** A proxy that refuses every request and records its first line (`CONNECT host:443 ...`). */
export function startProxyTrap() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const attempts: string[] = [];
  const refuse = new TextEncoder().encode(
    "HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n",
  );
  const serving = (async () => {
    for await (const conn of listener) {
      const buffer = new Uint8Array(1024);
      const n = await conn.read(buffer).catch(() => null);
      attempts.push(
        new TextDecoder().decode(buffer.subarray(0, n ?? 0)).split("\r\n")[0] ??
          "",
      );
      await conn.write(refuse).catch(() => 0);
      conn.close();
    }
  })().catch(() => {});
  const url = `http://127.0.0.1:${listener.addr.port}`;
  const noProxy = "127.0.0.1,localhost";
  return {
    attempts,
    env: {
      HTTPS_PROXY: url,
      HTTP_PROXY: url,
      ALL_PROXY: url,
      https_proxy: url,
      http_proxy: url,
      NO_PROXY: noProxy,
      no_proxy: noProxy,
    },
    async close() {
      listener.close();
      await serving;
    },
  };
}

/** Codex's config: the gateway root as a Responses provider keyed from auth.json, no calls
 * home (analytics off; plugin sync, which fetches from github.com and chatgpt.com, off). */
export function codexConfig(model: string, gatewayUrl: string): string {
  return [
    `model = "${model}"`,
    `model_provider = "gatehouse"`,
    "",
    "[model_providers.gatehouse]",
    `name = "gatehouse"`,
    `base_url = "${gatewayUrl}"`,
    `wire_api = "responses"`,
    "requires_openai_auth = true",
    "supports_websockets = false",
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[features]",
    "plugins = false",
    "",
  ].join("\n");
}

/** What {@link runCodexCat} ran and what the file held. */
export interface CodexCatRun {
  run: ClientRun;
  /** The file's first line, which the answer must carry. */
  secret: string;
  /** The file Codex was asked to cat. */
  file: string;
}

/**
 * Runs `codex exec --json` in `home` (a fresh temporary folder) with a CODEX_HOME naming the
 * gateway at `gatewayUrl` as its provider, keyed with `key`, and the proxy trap's environment:
 * the task is to cat a file whose first line is a fresh secret.
 */
export async function runCodexCat(codex: string, options: {
  home: string;
  model: string;
  gatewayUrl: string;
  key: string;
  trapEnv: Record<string, string>;
  secretPrefix: string;
  timeoutMs: number;
}): Promise<CodexCatRun> {
  const { home } = options;
  const secret = `${options.secretPrefix}-${crypto.randomUUID().slice(0, 8)}`;
  const file = `${home}/notes.txt`;
  await Deno.writeTextFile(file, `${secret}\nsecond line\n`);
  const codexHome = `${home}/codex`;
  await Deno.mkdir(codexHome);
  await Deno.writeTextFile(
    `${codexHome}/config.toml`,
    codexConfig(options.model, options.gatewayUrl),
  );
  await Deno.writeTextFile(
    `${codexHome}/auth.json`,
    JSON.stringify({ OPENAI_API_KEY: options.key }),
  );
  const run = await runClient(
    codex,
    [
      "exec",
      "--skip-git-repo-check",
      "--strict-config",
      "--sandbox",
      "read-only",
      "--json",
      `Run \`cat ${file}\` and tell me what it printed.`,
    ],
    { HOME: home, CODEX_HOME: codexHome, ...options.trapEnv },
    { cwd: home, timeoutMs: options.timeoutMs },
  );
  return { run, secret, file };
}
