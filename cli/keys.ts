/**
 * `deno task keys`: create, change, rotate, revoke and list gatehouse API keys, with the same
 * fields, checks and messages as the admin API (`/admin/v1/keys`), whose operations it runs.
 *
 * `create` and `rotate` print the key alone on stdout, so `KEY=$(deno task keys create --name
 * ci)` captures exactly the key; everything meant for a person goes to stderr.
 * @module
 */
import { POLICY_FIELDS } from "../governance/policy.ts";
import { usd } from "../governance/refusals.ts";
import type { KeyRecord, Store } from "../store/store.ts";
import { assertNever } from "../core/stream.ts";
import {
  CreateKeyBody,
  type CreateKeyInput,
  DEFAULT_GRACE_SECONDS,
  RotateKeyBody,
  UpdateKeyBody,
  type UpdateKeyInput,
} from "../routes/admin_schemas.ts";
import { createKey, revokeKey, rotateKey, updateKey } from "../routes/handlers/admin_ops.ts";
import { budgetOf } from "../routes/handlers/admin_views.ts";
import {
  type CliIo,
  DEFAULT_DB_PATH,
  formatTable,
  formatTime,
  processIo,
  runCli,
  UsageError,
} from "./cli_common.ts";
import {
  checked,
  clearsFromFlags,
  type CommandLine,
  flagOf,
  onlyFlags,
  parseCommandLine,
  parseDuration,
  POLICY_FLAGS,
  policyFromFlags,
  policySummary,
  positionals,
} from "./policy_flags.ts";

export { DEFAULT_DB_PATH };
/** Where the keys CLI reads its settings and writes its output. */
export type KeysCliIo = CliIo;

/** Shown on `--help` (stdout) and on bad arguments (stderr). */
export const USAGE = `Usage:
  deno task keys create --name NAME [POLICY] [--team TEAM] [--admin]
                                      create a key; prints the key alone on stdout
  deno task keys update ID [--name NAME] [POLICY] [--team TEAM] [--admin | --no-admin]
                           [--clear FIELD]...
                                      change a key; --clear removes a field (repeatable):
                                      ${[...POLICY_FIELDS, "team"].join(", ")}
  deno task keys rotate ID [--grace DURATION]
                                      new secret, same key; prints it alone on stdout. The
                                      old secret works for the grace period (default 24h;
                                      0, 90s, 30m, 1h, 7d)
  deno task keys revoke ID            revoke a key by id
  deno task keys list                 list keys: policies, spend in the budget period and
                                      what is left (never a secret)

POLICY (each optional; a key's team's policy applies as well):
  --models a,b*           model ids or globs the key may call
  --rpm N  --tpm N        requests / tokens per minute
  --max-parallel N        requests in flight at once
  --budget-usd X          US dollars per budget period
  --budget-period P       day, week, month or total (default total)
  --expires WHEN          30d, 12h, 90m, 2027-01-01, an RFC 3339 time or unix seconds

Environment:
  DATABASE_URL   postgres://... URL of a Postgres store (wins over GATEHOUSE_DB)
  GATEHOUSE_DB   SQLite database path (default ${DEFAULT_DB_PATH})
`;

const POLICY = Object.values(POLICY_FLAGS);

type Command =
  | { kind: "create"; body: CreateKeyInput }
  | { kind: "update"; id: string; body: UpdateKeyInput }
  | { kind: "rotate"; id: string; graceSeconds: number }
  | { kind: "revoke"; id: string }
  | { kind: "list" }
  | { kind: "help" };

/** Reads the command line, values checked as the admin API checks them; a `UsageError` for a
 * wrong one (before any store is opened). */
function parseCommand(args: string[]): Command {
  const line = parseCommandLine(args);
  if (line.flags.help === true || line.command === "help") return { kind: "help" };
  switch (line.command) {
    case "create":
      onlyFlags(line, ["name", "team", "admin", ...POLICY]);
      positionals(line, 0, "--name NAME and no other argument");
      if (typeof line.flags.name !== "string" || line.flags.name.trim() === "") {
        throw new UsageError("create needs --name NAME", true);
      }
      return { kind: "create", body: createBody(line) };
    case "update": {
      onlyFlags(line, ["name", "team", "admin", "no-admin", "clear", ...POLICY]);
      const [id] = positionals(line, 1, "exactly one key id");
      if (line.flags.admin === true && line.flags["no-admin"] === true) {
        throw new UsageError("--admin and --no-admin contradict");
      }
      return { kind: "update", id: id!, body: updateBody(line) };
    }
    case "rotate": {
      onlyFlags(line, ["grace"]);
      const [id] = positionals(line, 1, "exactly one key id");
      const grace = line.flags.grace;
      const body = checked(RotateKeyBody, {
        grace_seconds: typeof grace === "string"
          ? parseDuration(grace, "--grace")
          : DEFAULT_GRACE_SECONDS,
      }, line.flags);
      return { kind: "rotate", id: id!, graceSeconds: body.grace_seconds ?? DEFAULT_GRACE_SECONDS };
    }
    case "revoke":
      onlyFlags(line, []);
      return { kind: "revoke", id: positionals(line, 1, "exactly one key id")[0]! };
    case "list":
      onlyFlags(line, []);
      positionals(line, 0, "no arguments");
      return { kind: "list" };
    case undefined:
      throw new UsageError("missing command", true);
    default:
      throw new UsageError(`unknown command "${line.command}"`, true);
  }
}

/** The create body the flags describe, checked by the admin API's schema. */
function createBody(line: CommandLine): CreateKeyInput {
  const { flags } = line;
  return checked(CreateKeyBody, {
    name: flags.name,
    ...(typeof flags.team === "string" ? { team: flags.team } : {}),
    ...(flags.admin === true ? { admin: true } : {}),
    ...policyFromFlags(flags),
  }, flags);
}

/** The PATCH body the flags describe, checked by the admin API's schema. */
function updateBody(line: CommandLine): UpdateKeyInput {
  const { flags } = line;
  const set: Record<string, unknown> = {
    ...(typeof flags.name === "string" ? { name: flags.name } : {}),
    ...(typeof flags.team === "string" ? { team: flags.team } : {}),
    ...(flags.admin === true ? { admin: true } : {}),
    ...(flags["no-admin"] === true ? { admin: false } : {}),
    ...policyFromFlags(flags),
  };
  const clears = clearsFromFlags(flags, [...POLICY_FIELDS, "team"], set);
  if (Object.keys(set).length + Object.keys(clears).length === 0) {
    throw new UsageError("update needs something to change: a flag or --clear FIELD", true);
  }
  return checked(UpdateKeyBody, { ...set, ...clears }, flags);
}

/** The key list as an aligned table. Hints only: the store holds no secrets to show. */
export async function formatKeyTable(store: Store, keys: KeyRecord[], now: number) {
  const header = [
    "ID",
    "NAME",
    "HINT",
    "TEAM",
    "ADMIN",
    "CREATED",
    "LAST USED",
    "REVOKED",
    "SPENT",
    "LEFT",
    "POLICY",
  ];
  const rows = await Promise.all(keys.map(async (k) => {
    const budget = await budgetOf(store, k.policy, { keyId: k.id }, now);
    return [
      k.id,
      k.name,
      k.hint,
      k.team ?? "-",
      k.admin ? "yes" : "-",
      formatTime(k.createdAt),
      formatTime(k.lastUsedAt),
      formatTime(k.revokedAt),
      budget === null ? "-" : `${usd(budget.spentUsd)}/${budget.period}`,
      budget === null ? "-" : usd(budget.remainingUsd),
      policySummary(k.policy),
    ];
  }));
  return formatTable(header, rows);
}

async function run(
  command: Exclude<Command, { kind: "help" }>,
  store: Store,
  dbPath: string,
  io: CliIo,
): Promise<number> {
  const now = Date.now();
  switch (command.kind) {
    case "create": {
      const { record, key } = await createKey(store, command.body, now);
      io.stdout(`${key}\n`);
      io.stderr(
        `Created key ${record.id} ("${record.name}") in ${dbPath}. ` +
          "Copy it now: it is not stored and cannot be shown again.\n",
      );
      return 0;
    }
    case "update": {
      const record = await updateKey(store, command.id, command.body, now);
      io.stderr(`Updated key ${record.id} ("${record.name}"): ${policySummary(record.policy)}\n`);
      return 0;
    }
    case "rotate": {
      const { record, key } = await rotateKey(store, command.id, command.graceSeconds);
      io.stdout(`${key}\n`);
      // Judged against the rotation's own time: the store's clock ran on since `now` was read.
      const until = record.previousValidUntil;
      io.stderr(
        `Rotated key ${record.id} ("${record.name}"). ` +
          (until === null || until <= (record.rotatedAt ?? now)
            ? "The old secret no longer works. "
            : `The old secret works until ${formatTime(until)}. `) +
          "Copy the new key now: it cannot be shown again.\n",
      );
      return 0;
    }
    case "revoke": {
      await revokeKey(store, command.id);
      io.stderr(`Revoked key ${command.id}. Requests with it are now refused.\n`);
      return 0;
    }
    case "list": {
      const keys = await store.listKeys();
      if (keys.length === 0) {
        io.stderr(`No keys in ${dbPath}. Create one with: deno task keys create --name NAME\n`);
        return 0;
      }
      io.stdout(await formatKeyTable(store, keys, now));
      return 0;
    }
    default:
      return assertNever(command, "keys command");
  }
}

/** Runs the keys CLI; resolves to the exit code (0 ok, 1 failure, 2 bad usage or value). */
export function runKeysCli(args: string[], io: CliIo): Promise<number> {
  return runCli({ usage: USAGE, parse: parseCommand, flagOf, run }, args, io);
}

if (import.meta.main) Deno.exit(await runKeysCli(Deno.args, processIo()));
