/**
 * What the keys and teams CLIs share: where they write, the store they open, how an error
 * becomes an exit code (0 ok, 1 failure, 2 bad usage or a bad value), and how they print times,
 * money and tables.
 * @module
 */
import { GatewayError } from "../core/errors.ts";
import { openStore } from "../store/open_store.ts";
import type { Store } from "../store/store.ts";
import { DEFAULT_DB_PATH, redactUrl, storeLocation } from "../cluster/settings.ts";

/** Where a CLI reads its settings and writes its output. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: { get(name: string): string | undefined };
}

export { DEFAULT_DB_PATH };

/** A bad argument or value: exit 2, the message on stderr (followed by the usage text when
 * `showUsage`). */
export class UsageError extends Error {
  constructor(message: string, readonly showUsage = false) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Opens the store named by `DATABASE_URL` or `GATEHOUSE_DB` (the gateway's own choice) and runs `work` with it; the exit code. A
 * `UsageError` or a 400 from the shared admin operations is 2, any other failure 1; `flagOf`
 * turns a 400's field into the flag that set it.
 */
export async function withStore(
  io: CliIo,
  usage: string,
  flagOf: (field: string) => string | null,
  work: (store: Store, dbPath: string) => Promise<number>,
): Promise<number> {
  const location = storeLocation((name) => io.env.get(name));
  // A Postgres URL may carry a password: what the CLI prints of it never does.
  const dbPath = /^postgres(?:ql)?:/i.test(location) ? redactUrl(location) : location;
  let store;
  try {
    store = await openStore(location);
  } catch (error) {
    io.stderr(`error: ${messageOf(error)}\n`);
    return 1;
  }
  try {
    return await work(store, dbPath);
  } catch (error) {
    return reportError(io, usage, error, flagOf);
  } finally {
    await store.close();
  }
}

/** One CLI: how it reads its command line (a `UsageError` for a wrong one, before any store is
 * opened), and what it does with a command and the store. */
export interface CliSpec<C extends { kind: string }> {
  usage: string;
  parse(args: string[]): C | { kind: "help" };
  flagOf(field: string): string | null;
  run(command: C, store: Store, dbPath: string, io: CliIo): Promise<number>;
}

/** Runs a CLI; resolves to the exit code (0 ok, 1 failure, 2 bad usage or value). `--help`
 * prints the usage on stdout. */
export async function runCli<C extends { kind: string }>(
  spec: CliSpec<C>,
  args: string[],
  io: CliIo,
): Promise<number> {
  let command: C | { kind: "help" };
  try {
    command = spec.parse(args);
  } catch (error) {
    return reportError(io, spec.usage, error);
  }
  if (command.kind === "help") {
    io.stdout(spec.usage);
    return 0;
  }
  const work = command as C;
  return await withStore(
    io,
    spec.usage,
    spec.flagOf,
    (store, dbPath) => spec.run(work, store, dbPath, io),
  );
}

/** Prints `error` and returns its exit code. */
export function reportError(
  io: CliIo,
  usage: string,
  error: unknown,
  flagOf: (field: string) => string | null = () => null,
): number {
  if (error instanceof UsageError) {
    io.stderr(`error: ${error.message}\n${error.showUsage ? `\n${usage}` : ""}`);
    return 2;
  }
  if (error instanceof GatewayError) {
    // A bad value names the flag that carried it; a missing or busy key or team is not a flag's.
    const flag = error.param === null || error.status !== 400 ? null : flagOf(error.param);
    io.stderr(`error: ${flag === null ? "" : `${flag}: `}${error.message}\n`);
    return error.status === 400 ? 2 : 1;
  }
  io.stderr(`error: ${messageOf(error)}\n`);
  return 1;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A unix-millisecond time as `YYYY-MM-DD HH:MM:SSZ`, or `-` when absent. */
export function formatTime(time: number | null): string {
  return time === null ? "-" : `${new Date(time).toISOString().slice(0, 19).replace("T", " ")}Z`;
}

/** Rows as an aligned table under `header`, one line each. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  return [header, ...rows].map(line).join("\n") + "\n";
}

/** Writes text to a file handle whole (a short write continues). */
export function writer(file: { writeSync(p: Uint8Array): number }): (text: string) => void {
  const encoder = new TextEncoder();
  return (text) => {
    let bytes = encoder.encode(text);
    while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
  };
}

/** The process's own streams and environment. */
export function processIo(): CliIo {
  return { stdout: writer(Deno.stdout), stderr: writer(Deno.stderr), env: Deno.env };
}
