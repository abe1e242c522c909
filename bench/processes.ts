/**
 * Starts the benchmark's servers as child processes (so none shares an event loop with the load
 * generator or another server) and stops them. A child announces itself with one JSON line on
 * stdout and exits when its stdin closes.
 * @module
 */
import { fileURLToPath } from "node:url";
import type { Announcement } from "./child.ts";

/** The repository root: children run there, so they use its `deno.json`. */
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A running child server. */
export interface ChildServer {
  name: string;
  /** Its process id (the bench reads its CPU time, `cpu_time.ts`). */
  pid: number;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  announcement: Announcement;
  /** Everything the child wrote to stderr so far. */
  stderr(): string;
  /** What it wrote to stdout after its announcement ("" unless started with `keepStdout`). */
  stdout(): string;
  /** Sends one command line to the child's stdin. */
  send(line: string): Promise<void>;
  stop(): Promise<void>;
}

/** Collects a stream's text in the background. */
function collect(stream: ReadableStream<Uint8Array>): () => string {
  let text = "";
  (async () => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) text += chunk;
  })().catch(() => {});
  return () => text;
}

/** The announcement: one JSON object starting with its port (`child.ts`). Searched for anywhere
 * in the output, not only at a line's start: V8's `--trace-gc-nvp` writes its lines in pieces,
 * and the announcement can land inside one. */
const ANNOUNCEMENT = /\{"port":\d+[^{}]*\}/;

/** Reads stdout until the announcement; the rest is drained, and handed to `keep` when given
 * (else dropped). */
async function readAnnouncement(
  name: string,
  stdout: ReadableStream<Uint8Array>,
  stderr: () => string,
  keep?: (text: string) => void,
): Promise<Announcement> {
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      throw new Error(`${name} exited before it listened.\n${stderr()}`);
    }
    buffered += value;
    const match = ANNOUNCEMENT.exec(buffered);
    if (match === null) continue;
    keep?.(buffered.slice(match.index + match[0].length));
    (async () => {
      // Reading keeps the child's pipe from filling up.
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        keep?.(next.value);
      }
    })().catch(() => {});
    return JSON.parse(match[0]) as Announcement;
  }
}

/** Extra process settings. */
export interface ChildOptions {
  env?: Record<string, string>;
  /** Send its stderr to /dev/null (a gateway logging every request: the child still pays for
   * each write, the bench does not keep the lines). */
  discardStderr?: boolean;
  /** Runtime flags put before the script (`--v8-flags=--trace-gc-nvp`). */
  runtimeFlags?: string[];
  /** Keep what it writes to stdout after its announcement (`ChildServer.stdout`). */
  keepStdout?: boolean;
  /** Where it runs (its `deno.json` and `node_modules`); default: this repository's root. */
  cwd?: string;
  /** A program that runs deno, with its arguments (`["valgrind", "--tool=callgrind"]`): the
   * child's process is then that program's, as valgrind's is the program it runs. */
  wrapper?: string[];
}

/** Starts `deno run -A <script> ...args` from the repository root and waits until it listens. */
export async function startChild(
  name: string,
  script: string,
  args: string[],
  options: ChildOptions = {},
): Promise<ChildServer> {
  const deno = ["run", "-A", ...(options.runtimeFlags ?? []), script, ...args];
  const [program, ...wrapperArgs] = options.wrapper ?? [Deno.execPath()];
  const child = new Deno.Command(program!, {
    args: options.wrapper ? [...wrapperArgs, Deno.execPath(), ...deno] : deno,
    cwd: options.cwd ?? ROOT,
    env: options.env ?? {},
    stdin: "piped",
    stdout: "piped",
    stderr: options.discardStderr ? "null" : "piped",
  }).spawn();
  const stderr = options.discardStderr ? () => "" : collect(child.stderr);
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  };
  // Under a wrapper such as valgrind, starting takes many times longer.
  const timeout = setTimeout(kill, options.wrapper ? 600_000 : 60_000);
  let kept = "";
  const keep = options.keepStdout ? (text: string) => void (kept += text) : undefined;
  let announcement: Announcement;
  try {
    announcement = await readAnnouncement(name, child.stdout, stderr, keep);
  } catch (error) {
    kill();
    throw error;
  } finally {
    clearTimeout(timeout);
  }
  const writer = child.stdin.getWriter();
  return {
    name,
    pid: child.pid,
    url: `http://127.0.0.1:${announcement.port}`,
    announcement,
    stderr,
    stdout: () => kept,
    send: (line) => writer.write(new TextEncoder().encode(`${line}\n`)),
    async stop() {
      await writer.close().catch(() => {});
      const forced = setTimeout(kill, 5_000);
      await child.status;
      clearTimeout(forced);
    },
  };
}
