/**
 * Real processes for cross-process tests: a `main.ts --demo` gateway and the `deno task keys` /
 * `deno task teams` CLIs, each a child process on one SQLite file (`GATEHOUSE_DB`), run with the
 * permissions their `deno.json` tasks grant; and timed requests to the gateway.
 * @module
 */
import assert from "node:assert/strict";
import { collectRun, secretsOfEnv, withoutFirstKey } from "../logs/collect.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const CLI = {
  keys: new URL("../../cli/keys.ts", import.meta.url).pathname,
  teams: new URL("../../cli/teams.ts", import.meta.url).pathname,
};
const TOOL = ["--allow-net", "--allow-env", "--allow-read", "--allow-write", "--allow-sys"];
/** The `start` task's permissions. */
const SERVE = [...TOOL, "--allow-ffi"];

/** The first admin key a fresh store's start prints (group 1). */
export const FIRST_KEY = /store it now:\s+(gth_[a-z2-7]{10}_[0-9A-Za-z]{32})/;

/** A running gateway process. */
export interface GatewayProcess {
  child: Deno.ChildProcess;
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** What it printed so far, stdout and stderr, for failure messages. */
  output(): string;
  /** SIGTERM (SIGKILL when it has not exited after `graceMs`); resolves once it has exited and
   * its output is drained. Safe to call twice. */
  stop(graceMs?: number): Promise<Deno.CommandStatus>;
}

/** Reads a stream to its end, handing each decoded piece to `seen`. */
async function drain(stream: ReadableStream<Uint8Array>, seen: (text: string) => void) {
  try {
    for await (const text of stream.pipeThrough(new TextDecoderStream())) seen(text);
  } catch { /* the child is gone */ }
}

/**
 * Starts `main.ts --demo` on a free port of 127.0.0.1 (PORT=0, no docs host) with the store at
 * `dbPath`; resolves once it listens. `env` adds to (or overrides) the child's environment;
 * `demo: false` serves the catalog's providers instead (point them at a fake with `env`).
 */
export async function startGateway(
  dbPath: string,
  options: { env?: Record<string, string>; timeoutMs?: number; demo?: boolean } = {},
): Promise<GatewayProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...SERVE, MAIN, ...(options.demo ?? true ? ["--demo"] : [])],
    env: {
      GATEHOUSE_DB: dbPath,
      PORT: "0",
      HOST: "127.0.0.1",
      DOCS_PORT: "off",
      ...options.env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let seen = "";
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (listening = resolve));
  let found = false;
  const read = (text: string) => {
    seen += text;
    const port = found ? undefined : /listening on http:\/\/[^:\s]+:(\d+)/.exec(seen)?.[1];
    if (port) listening(`http://127.0.0.1:${port}`);
    found ||= port !== undefined;
  };
  // Both streams are read to their end, so the child never blocks on a full pipe; then its
  // output goes to the suite's log scan (tests/logs/collect.ts).
  let stdout = "";
  let stderr = "";
  const drained = Promise.all([
    drain(child.stdout, (text) => {
      stdout += text;
      read(text);
    }),
    drain(child.stderr, (text) => {
      stderr += text;
      read(text);
    }),
  ]).then(() => {
    const printed = withoutFirstKey(stdout);
    collectRun({
      source: "main.ts",
      lines: [...printed.text.split("\n"), ...stderr.split("\n")],
      secrets: [...printed.keys, ...secretsOfEnv(options.env)],
    });
  });
  let status: Promise<Deno.CommandStatus> | null = null;
  const stop = (graceMs = 5_000) => {
    status ??= (async () => {
      try {
        child.kill("SIGTERM");
      } catch { /* already exited */ }
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* already exited */ }
      }, graceMs);
      try {
        const exit = await child.status;
        await drained;
        return exit;
      } finally {
        clearTimeout(timer);
      }
    })();
    return status;
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const failed = new Promise<"failed">((resolve) => {
    timer = setTimeout(() => resolve("failed"), options.timeoutMs ?? 30_000);
    child.status.then(() => resolve("failed"));
  });
  const started = await Promise.race([url, failed]).finally(() => clearTimeout(timer));
  if (started === "failed") {
    await stop(0);
    throw new Error(`the gateway did not start:\n${seen}`);
  }
  return { child, url: started, output: () => seen, stop };
}

/** A finished CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall-clock times (unix ms) when the process was started and when its exit was seen. */
  startedAt: number;
  exitedAt: number;
}

/** Runs `deno task keys|teams ARGS` as its own process against `dbPath`. */
export async function runCli(
  tool: keyof typeof CLI,
  args: string[],
  dbPath: string,
): Promise<CliRun> {
  const startedAt = Date.now();
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...TOOL, CLI[tool], ...args],
    env: { GATEHOUSE_DB: dbPath },
    stdin: "null",
  }).output();
  const exitedAt = Date.now();
  const text = new TextDecoder();
  return { code, stdout: text.decode(stdout), stderr: text.decode(stderr), startedAt, exitedAt };
}

/** A gateway's answer, read whole. */
export interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
  headers: Headers;
  /** Wall-clock times (unix ms) around the exchange. */
  sentAt: number;
  receivedAt: number;
}

/** Sends a request with `key` as its bearer (a JSON body, when `init` has one). */
export async function send(
  url: string,
  key: string,
  path: string,
  init: RequestInit = {},
): Promise<Answer> {
  const sentAt = Date.now();
  const response = await fetch(`${url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === "" ? null : JSON.parse(text),
    headers: response.headers,
    sentAt,
    receivedAt: Date.now(),
  };
}

/** Repeats `ask` every 10 ms until `done` holds of an answer: that answer and those before it.
 * Fails after 10 s, or once `stop.now` is set. */
export async function pollUntil(
  ask: () => Promise<Answer>,
  done: (answer: Answer) => boolean,
  stop = { now: false },
): Promise<{ answer: Answer; before: Answer[] }> {
  const seen: Answer[] = [];
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !stop.now) {
    const answer = await ask();
    seen.push(answer);
    if (done(answer)) return { answer, before: seen.slice(0, -1) };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`not seen in time; statuses: ${seen.map((a) => a.status).join(",")}`);
}
