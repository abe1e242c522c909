/**
 * The real gateway as the scale-out bench runs it: `main.ts` as its own process (the flags
 * `deno task start` gives it), a fresh environment holding only what the run sets, and the admin
 * key it prints on its first start.
 * @module
 */
import { fileURLToPath } from "node:url";

/** The repository root, where `main.ts` and `deno.json` are. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The permissions `deno task start` runs `main.ts` with. */
export const MAIN_FLAGS = [
  "--allow-net",
  "--allow-env",
  "--allow-read",
  "--allow-write",
  "--allow-sys",
  "--allow-ffi",
];

/** What the start-up printed that the bench needs. */
export interface StartupOutput {
  /** `http://127.0.0.1:PORT` from the `gatehouse listening on` line. */
  url: string;
  /** The admin key created on the first start, when one was printed. */
  adminKey: string | null;
}

/** Reads the start-up facts from `main.ts`'s stdout so far; null until it listens. */
export function parseStartup(stdout: string): StartupOutput | null {
  const listening = /gatehouse listening on (http:\/\/[^\s/]+)/.exec(stdout);
  if (listening === null) return null;
  const admin = /store it now:\s+(gth_\S+)/.exec(stdout);
  return { url: listening[1]!, adminKey: admin?.[1] ?? null };
}

/** A running `main.ts`. */
export interface GatewayProcess extends StartupOutput {
  /** Its process id (the streams bench reads its memory). */
  pid: number;
  /** The process's stdout and stderr so far. */
  output(): string;
  /** SIGTERM (the graceful drain), SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number>;
}

/** Variables of the driver's environment the child needs to find Deno's cache and tools. */
const PASSED_THROUGH = ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME", "TMPDIR"];

/** Starts `main.ts` with `args` (and `runtimeFlags` before it, `--inspect=…` say) and exactly
 * `env` (plus PATH, HOME and Deno's cache location), and resolves once it listens; rejects with
 * its output when it exits first or takes over `timeoutMs`. */
export async function startGateway(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  options: { discardStderr?: boolean; runtimeFlags?: string[] } = {},
): Promise<GatewayProcess> {
  const passed: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = Deno.env.get(name);
    if (value !== undefined) passed[name] = value;
  }
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...MAIN_FLAGS, ...options.runtimeFlags ?? [], "main.ts", ...args],
    cwd: ROOT,
    clearEnv: true,
    env: { ...passed, ...env },
    stdin: "null",
    stdout: "piped",
    // A run that logs every request writes to /dev/null: the gateway still pays for each write,
    // the bench does not spend its own CPU keeping the lines.
    stderr: options.discardStderr ? "null" : "piped",
  }).spawn();
  let stdout = "";
  let stderr = "";
  const drain = async (stream: ReadableStream<Uint8Array>, add: (text: string) => void) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) add(text);
  };
  drain(child.stdout, (text) => (stdout += text)).catch(() => {});
  if (!options.discardStderr) drain(child.stderr, (text) => (stderr += text)).catch(() => {});
  const output = () => `${stdout}${stderr === "" ? "" : `\n[stderr]\n${stderr}`}`;
  let exited: number | null = null;
  const status = child.status.then((s) => (exited = s.code));
  const kill = (signal: Deno.Signal) => {
    try {
      child.kill(signal);
    } catch {
      // Already exited.
    }
  };
  const started = Date.now();
  for (;;) {
    const startup = parseStartup(stdout);
    if (startup !== null) {
      return {
        ...startup,
        pid: child.pid,
        output,
        async stop(graceMs = 10_000) {
          kill("SIGTERM");
          const forced = setTimeout(() => kill("SIGKILL"), graceMs);
          const code = await status;
          clearTimeout(forced);
          return code;
        },
      };
    }
    if (exited !== null) {
      throw new Error(`main.ts exited with ${exited} before it listened:\n${output()}`);
    }
    if (Date.now() - started > timeoutMs) {
      kill("SIGKILL");
      await status;
      throw new Error(`main.ts did not listen within ${timeoutMs} ms:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
