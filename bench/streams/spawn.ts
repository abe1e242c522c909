/**
 * The streams bench's processes: a Deno script started with the runtime flags the run needs
 * (`--inspect` to read its memory from inside, `--v8-flags`), resolved once it says where it
 * listens: the bench children's `{"port":N}` line, or `main.ts`'s `gatehouse listening on`.
 * @module
 */
import { ROOT } from "../scale/gateway_process.ts";

/** A running process of the bench. */
export interface Spawned {
  pid: number;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The inspector's WebSocket address, when started with `--inspect`. */
  inspector: string | null;
  /** Its stdout and stderr so far. */
  output(): string;
  /** Stops it (its stdin closed, or SIGTERM), SIGKILL after `graceMs`; resolves with the exit
   * code. */
  stop(graceMs?: number): Promise<number>;
}

/** Variables of the bench's environment a child needs to find Deno's cache and tools. */
const PASSED_THROUGH = ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME", "TMPDIR"];

/** Starts `deno run <flags> <script> <args>` from the repository root with exactly `env` (plus
 * what finds Deno's cache); resolves once it listens, rejects with its output when it exits
 * first or takes longer than a minute. It is stopped by closing its stdin (the bench's
 * children), or with `sigterm` by SIGTERM (`main.ts`'s graceful drain). */
export async function spawnDeno(
  flags: string[],
  script: string,
  args: string[],
  env: Record<string, string>,
  sigterm = false,
): Promise<Spawned> {
  const passed: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = Deno.env.get(name);
    if (value !== undefined) passed[name] = value;
  }
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, script, ...args],
    cwd: ROOT,
    clearEnv: true,
    env: { ...passed, ...env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) out += text;
  };
  drain(child.stdout).catch(() => {});
  drain(child.stderr).catch(() => {});
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
    const port = /^\{"port":(\d+)/m.exec(out)?.[1] ??
      /gatehouse listening on http:\/\/[^\s/:]+:(\d+)/.exec(out)?.[1];
    if (port !== undefined) {
      return {
        pid: child.pid,
        url: `http://127.0.0.1:${port}`,
        inspector: /Debugger listening on (ws:\/\/\S+)/.exec(out)?.[1] ?? null,
        output: () => out,
        async stop(graceMs = 10_000) {
          await child.stdin.close().catch(() => {});
          if (sigterm) kill("SIGTERM");
          const forced = setTimeout(() => kill("SIGKILL"), graceMs);
          const code = await status;
          clearTimeout(forced);
          return code;
        },
      };
    }
    if (exited !== null) throw new Error(`${script} exited with ${exited}:\n${out}`);
    if (Date.now() - started > 60_000) {
      kill("SIGKILL");
      await status;
      throw new Error(`${script} did not listen within a minute:\n${out}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
