/**
 * `deno task teams`: create, change, list and delete teams (a policy shared by their keys), with
 * the same fields, checks and messages as the admin API (`/admin/v1/teams`), whose operations it
 * runs. Keys join a team with `deno task keys create|update --team ID`.
 * @module
 */
import { POLICY_FIELDS } from "../governance/policy.ts";
import { usd } from "../governance/refusals.ts";
import type { Store, TeamRecord } from "../store/store.ts";
import { assertNever } from "../core/stream.ts";
import {
  CreateTeamBody,
  type CreateTeamInput,
  UpdateTeamBody,
  type UpdateTeamInput,
} from "../routes/admin_schemas.ts";
import {
  createTeam,
  deleteTeam,
  liveKeysByTeam,
  updateTeam,
} from "../routes/handlers/admin_ops.ts";
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
  flagOf,
  onlyFlags,
  parseCommandLine,
  POLICY_FLAGS,
  policyFromFlags,
  policySummary,
  positionals,
} from "./policy_flags.ts";

/** Shown on `--help` (stdout) and on bad arguments (stderr). */
export const USAGE = `Usage:
  deno task teams create ID [POLICY]  create a team (ID: a-z 0-9 _ . -, e.g. research)
  deno task teams update ID [POLICY] [--clear FIELD]...
                                      change a team's policy; --clear removes a field
                                      (repeatable): ${POLICY_FIELDS.join(", ")}
  deno task teams list                list teams: keys, policy, spend in the budget period
                                      and what is left
  deno task teams delete ID           delete a team no live key belongs to

POLICY (each optional; it applies to every key of the team, on top of the key's own):
  --models a,b*           model ids or globs the team's keys may call
  --rpm N  --tpm N        requests / tokens per minute, shared by all the team's keys
  --max-parallel N        requests in flight at once, all keys together
  --budget-usd X          US dollars per budget period, all keys together
  --budget-period P       day, week, month or total (default total)
  --expires WHEN          30d, 12h, 90m, 2027-01-01, an RFC 3339 time or unix seconds

Keys join a team with: deno task keys create --name NAME --team ID (or keys update ID --team).

Environment:
  DATABASE_URL   postgres://... URL of a Postgres store (wins over GATEHOUSE_DB)
  GATEHOUSE_DB   SQLite database path (default ${DEFAULT_DB_PATH})
`;

const POLICY = Object.values(POLICY_FLAGS);

type Command =
  | { kind: "create"; body: CreateTeamInput }
  | { kind: "update"; id: string; body: UpdateTeamInput }
  | { kind: "delete"; id: string }
  | { kind: "list" }
  | { kind: "help" };

/** Reads the command line, values checked as the admin API checks them; a `UsageError` for a
 * wrong one (before any store is opened). */
function parseCommand(args: string[]): Command {
  const line = parseCommandLine(args);
  if (line.flags.help === true || line.command === "help") return { kind: "help" };
  switch (line.command) {
    case "create": {
      onlyFlags(line, POLICY);
      const [id] = positionals(line, 1, "exactly one team id");
      const body = checked(CreateTeamBody, { id, ...policyFromFlags(line.flags) }, line.flags);
      return { kind: "create", body };
    }
    case "update": {
      onlyFlags(line, [...POLICY, "clear"]);
      const [id] = positionals(line, 1, "exactly one team id");
      const set = policyFromFlags(line.flags);
      const clears = clearsFromFlags(line.flags, POLICY_FIELDS, set);
      if (Object.keys(set).length + Object.keys(clears).length === 0) {
        throw new UsageError("update needs something to change: a flag or --clear FIELD", true);
      }
      return {
        kind: "update",
        id: id!,
        body: checked(UpdateTeamBody, { ...set, ...clears }, line.flags),
      };
    }
    case "delete":
      onlyFlags(line, []);
      return { kind: "delete", id: positionals(line, 1, "exactly one team id")[0]! };
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

/** The team list as an aligned table. */
export async function formatTeamTable(store: Store, teams: TeamRecord[], now: number) {
  const counts = await liveKeysByTeam(store);
  const rows = await Promise.all(teams.map(async (team) => {
    const budget = await budgetOf(store, team.policy, { team: team.id }, now);
    return [
      team.id,
      String(counts.get(team.id) ?? 0),
      formatTime(team.createdAt),
      budget === null ? "-" : `${usd(budget.spentUsd)}/${budget.period}`,
      budget === null ? "-" : usd(budget.remainingUsd),
      policySummary(team.policy),
    ];
  }));
  return formatTable(["ID", "KEYS", "CREATED", "SPENT", "LEFT", "POLICY"], rows);
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
      const team = await createTeam(store, command.body, now);
      io.stderr(`Created team ${team.id} in ${dbPath}: ${policySummary(team.policy)}\n`);
      return 0;
    }
    case "update": {
      const team = await updateTeam(store, command.id, command.body, now);
      io.stderr(`Updated team ${team.id}: ${policySummary(team.policy)}\n`);
      return 0;
    }
    case "delete": {
      await deleteTeam(store, command.id);
      io.stderr(`Deleted team ${command.id}.\n`);
      return 0;
    }
    case "list": {
      const teams = await store.listTeams();
      if (teams.length === 0) {
        io.stderr(`No teams in ${dbPath}. Create one with: deno task teams create ID\n`);
        return 0;
      }
      io.stdout(await formatTeamTable(store, teams, now));
      return 0;
    }
    default:
      return assertNever(command, "teams command");
  }
}

/** Runs the teams CLI; resolves to the exit code (0 ok, 1 failure, 2 bad usage or value). */
export function runTeamsCli(args: string[], io: CliIo): Promise<number> {
  return runCli({ usage: USAGE, parse: parseCommand, flagOf, run }, args, io);
}

if (import.meta.main) Deno.exit(await runTeamsCli(Deno.args, processIo()));
