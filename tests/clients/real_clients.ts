/**
 * Running the real clients (installed from npm into tests/clients by .ci/run) offline against a
 * local gateway, each in a temporary HOME.
 * @module
 */

const BIN = new URL("./node_modules/.bin/", import.meta.url);

/** The path of a client binary, or null when `npm ci` has not run in tests/clients. */
export function clientBinary(name: "claude" | "codex"): string | null {
  const path = new URL(name, BIN).pathname;
  try {
    Deno.statSync(path);
    return path;
  } catch {
    return null;
  }
}

/** What a client run printed. */
export interface ClientRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a client with exactly `env` (plus PATH), bounded in time. */
export async function runClient(
  binary: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<ClientRun> {
  const command = new Deno.Command(binary, {
    args,
    cwd: options.cwd,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
  });
  const output = await command.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Fails loudly when a client binary is missing: CI installs them, so absence is an error. */
export function requireBinary(name: "claude" | "codex"): string {
  const path = clientBinary(name);
  if (!path) {
    throw new Error(
      `${name} is not installed in tests/clients: run (cd tests/clients && npm ci), as .ci/run does.`,
    );
  }
  return path;
}
