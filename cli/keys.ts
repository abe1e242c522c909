/**
 * `deno task keys`: create, list and revoke gatehouse API keys.
 *
 * `create` prints the new key alone on stdout, so `KEY=$(deno task keys create --name ci)`
 * captures exactly the key; everything meant for a person goes to stderr.
 * @module
 */
import { parseArgs } from "node:util";
import type { KeyRecord } from "../store/store.ts";
import { openStore } from "../store/open_store.ts";
import { assertNever } from "../core/stream.ts";

/** Where the keys CLI reads its settings and writes its output. */
export interface KeysCliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: { get(name: string): string | undefined };
}

/** The database used when `GATEHOUSE_DB` is unset. */
export const DEFAULT_DB_PATH = "./data/gatehouse.db";

/** Shown on `--help` (stdout) and on bad arguments (stderr). */
export const USAGE = `Usage:
  deno task keys create --name NAME   create a key; prints the key alone on stdout
  deno task keys list                 list keys (id, name, hint, created, last used, revoked)
  deno task keys revoke ID            revoke a key by id

Environment:
  GATEHOUSE_DB   SQLite database path (default ${DEFAULT_DB_PATH})
`;

type Command =
  | { kind: "create"; name: string }
  | { kind: "list" }
  | { kind: "revoke"; id: string }
  | { kind: "help" };

/** Parses the arguments into a command, or an error message for the usage text. */
function parseCommand(args: string[]): Command | string {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: { name: { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help === true || command === "help") return { kind: "help" };
  switch (command) {
    case "create": {
      if (rest.length > 0) return `unexpected argument "${rest[0]}" for create`;
      const name = values.name?.trim();
      if (name === undefined || name === "") return "create needs --name NAME";
      return { kind: "create", name };
    }
    case "list":
      if (rest.length > 0 || values.name !== undefined) return "list takes no arguments";
      return { kind: "list" };
    case "revoke": {
      const [id, ...extra] = rest;
      if (id === undefined || extra.length > 0 || values.name !== undefined) {
        return "revoke needs exactly one key id";
      }
      return { kind: "revoke", id };
    }
    case undefined:
      return "missing command";
    default:
      return `unknown command "${command}"`;
  }
}

/** A unix-millisecond time as `YYYY-MM-DD HH:MM:SSZ`, or `-` when absent. */
function formatTime(time: number | null): string {
  return time === null ? "-" : `${new Date(time).toISOString().slice(0, 19).replace("T", " ")}Z`;
}

/** The key list as an aligned table. Hints only: the store holds no secrets to show. */
export function formatKeyTable(keys: KeyRecord[]): string {
  const header = ["ID", "NAME", "HINT", "CREATED", "LAST USED", "REVOKED"];
  const rows = keys.map((k) => [
    k.id,
    k.name,
    k.hint,
    formatTime(k.createdAt),
    formatTime(k.lastUsedAt),
    formatTime(k.revokedAt),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd();
  return [header, ...rows].map(line).join("\n") + "\n";
}

/** Runs the keys CLI; resolves to the exit code (0 ok, 1 failure, 2 bad usage). */
export async function runKeysCli(args: string[], io: KeysCliIo): Promise<number> {
  const command = parseCommand(args);
  if (typeof command === "string") {
    io.stderr(`error: ${command}\n\n${USAGE}`);
    return 2;
  }
  if (command.kind === "help") {
    io.stdout(USAGE);
    return 0;
  }
  const dbPath = io.env.get("GATEHOUSE_DB") ?? DEFAULT_DB_PATH;
  let store;
  try {
    store = await openStore(dbPath);
  } catch (error) {
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  try {
    switch (command.kind) {
      case "create": {
        const { record, key } = await store.createKey(command.name);
        io.stdout(`${key}\n`);
        io.stderr(
          `Created key ${record.id} ("${record.name}") in ${dbPath}. ` +
            "Copy it now: it is not stored and cannot be shown again.\n",
        );
        return 0;
      }
      case "list": {
        const keys = await store.listKeys();
        if (keys.length === 0) {
          io.stderr(`No keys in ${dbPath}. Create one with: deno task keys create --name NAME\n`);
          return 0;
        }
        io.stdout(formatKeyTable(keys));
        return 0;
      }
      case "revoke": {
        if (!(await store.revokeKey(command.id))) {
          io.stderr(
            `error: no key with id "${command.id}" in ${dbPath}; ` +
              "see the ids with: deno task keys list\n",
          );
          return 1;
        }
        io.stderr(`Revoked key ${command.id}. Requests with it are now refused.\n`);
        return 0;
      }
      default:
        return assertNever(command, "keys command");
    }
  } catch (error) {
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await store.close();
  }
}

function writer(file: { writeSync(p: Uint8Array): number }): (text: string) => void {
  const encoder = new TextEncoder();
  return (text) => {
    let bytes = encoder.encode(text);
    while (bytes.length > 0) bytes = bytes.subarray(file.writeSync(bytes));
  };
}

if (import.meta.main) {
  Deno.exit(
    await runKeysCli(Deno.args, {
      stdout: writer(Deno.stdout),
      stderr: writer(Deno.stderr),
      env: Deno.env,
    }),
  );
}
