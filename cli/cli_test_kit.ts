/**
 * Test helpers for the CLIs: run one in-process against a database, capturing both streams.
 * @module
 */
import { join } from "node:path";
import type { CliIo } from "./cli_common.ts";

/** A CLI run's exit code and output. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `cli` with `args` and `GATEHOUSE_DB=db` (unset when undefined). */
export async function runCli(
  cli: (args: string[], io: CliIo) => Promise<number>,
  args: string[],
  db: string | undefined,
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const env = new Map<string, string>(db === undefined ? [] : [["GATEHOUSE_DB", db]]);
  const code = await cli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: { get: (name) => env.get(name) },
  });
  return { code, stdout, stderr };
}

/** Runs `fn` with a database path in a fresh temporary directory, removed afterwards. */
export async function withTempDb(fn: (db: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(join(dir, "data", "gatehouse.db"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
