/**
 * The one task every real Claude Code test gives it: read a file whose first line is a fresh
 * secret and say that line. Claude Code calls its Read tool, so each run is a tool round trip
 * (two `/v1/messages` requests) through the gateway under test.
 * @module
 */
import { type ClientRun, runClient } from "./real_clients.ts";

/** A finished run and the secret its answer must quote. */
export interface ClaudeReadRun {
  run: ClientRun;
  secret: string;
}

/** Runs `claude -p` in `home` (a fresh temporary folder) against the gateway at `gatewayUrl`,
 * keyed with `key`; `env` adds variables (model slots). */
export async function runClaudeRead(claude: string, options: {
  home: string;
  gatewayUrl: string;
  key: string;
  secretPrefix: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<ClaudeReadRun> {
  const { home } = options;
  const secret = `${options.secretPrefix}-${crypto.randomUUID().slice(0, 8)}`;
  const file = `${home}/notes.txt`;
  await Deno.writeTextFile(file, `${secret}\nsecond line\n`);
  const run = await runClient(claude, [
    "-p",
    `Read the file ${file} and tell me its first line.`,
    "--allowedTools",
    "Read",
  ], {
    HOME: home,
    ANTHROPIC_BASE_URL: options.gatewayUrl,
    ANTHROPIC_AUTH_TOKEN: options.key,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    ...options.env,
  }, { cwd: home, timeoutMs: options.timeoutMs });
  return { run, secret };
}
