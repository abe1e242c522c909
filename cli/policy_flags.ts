/**
 * The flags of `deno task keys` and `deno task teams`, read into the admin API's wire bodies:
 * the CLI validates what it builds with the admin API's own schemas (`routes/admin_schemas.ts`)
 * and hands it to the same operations, so a policy means and checks the same either way. A bad
 * value is a `UsageError` naming the flag that carried it.
 * @module
 */
import { parseArgs } from "node:util";
import type { z } from "zod";
import {
  type Policy,
  POLICY_FIELDS,
  type PolicyField,
  policyToWire,
} from "../governance/policy.ts";
import { UsageError } from "./cli_common.ts";

/** The flag that sets each policy field. */
export const POLICY_FLAGS: Record<PolicyField, string> = {
  models: "models",
  rpm: "rpm",
  tpm: "tpm",
  max_parallel: "max-parallel",
  budget_usd: "budget-usd",
  budget_period: "budget-period",
  expires_at: "expires",
};

const OTHER_FLAGS: Record<string, string> = {
  name: "name",
  team: "team",
  admin: "admin",
  grace_seconds: "grace",
};

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  name: { type: "string" },
  team: { type: "string" },
  admin: { type: "boolean" },
  "no-admin": { type: "boolean" },
  clear: { type: "string", multiple: true },
  grace: { type: "string" },
  ...Object.fromEntries(Object.values(POLICY_FLAGS).map((flag) => [flag, { type: "string" }])),
} as const;

/** Parsed flags, by flag name. */
export type Flags = Record<string, string | boolean | string[] | undefined>;

/** A command line: the command, its other positional arguments and its flags. */
export interface CommandLine {
  command: string | undefined;
  args: string[];
  flags: Flags;
}

/** Splits the arguments; a syntax error (unknown flag, missing value) is a `UsageError`. */
export function parseCommandLine(argv: string[]): CommandLine {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    });
    const [command, ...args] = positionals;
    return { command, args, flags: values as Flags };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), true);
  }
}

/** Throws unless every flag given is one `command` takes. */
export function onlyFlags(line: CommandLine, allowed: string[]): void {
  for (const [flag, value] of Object.entries(line.flags)) {
    if (value === undefined || flag === "help" || allowed.includes(flag)) continue;
    throw new UsageError(`--${flag} is not an option of ${line.command}`, true);
  }
}

/** Throws unless exactly `count` arguments follow the command; they are `what`. */
export function positionals(line: CommandLine, count: number, what: string): string[] {
  if (line.args.length !== count) {
    throw new UsageError(`${line.command} needs ${what}`, true);
  }
  return line.args;
}

/** The flag (or argument) that sets a wire field, for messages. */
export function flagOf(field: string): string | null {
  if (field === "id") return "ID";
  const flag = (POLICY_FLAGS as Record<string, string>)[field] ?? OTHER_FLAGS[field];
  return flag === undefined ? null : `--${flag}`;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** The policy fields the flags set, in wire form (numbers read as numbers, `--models` split on
 * commas; anything else is left as given for the schema to refuse). */
export function policyFromFlags(flags: Flags): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of POLICY_FIELDS) {
    const raw = flags[POLICY_FLAGS[field]];
    if (typeof raw !== "string") continue;
    if (field === "models") {
      out[field] = raw.split(",").map((id) => id.trim()).filter((id) => id !== "");
    } else if (field === "budget_period") out[field] = raw;
    else if (field === "expires_at") out[field] = /^\d+$/.test(raw) ? Number(raw) : raw;
    else out[field] = NUMBER.test(raw.trim()) ? Number(raw) : raw;
  }
  return out;
}

/** The wire fields `--clear` names (wire or flag spelling: `budget_usd`, `budget-usd`), each set
 * to null. Only `clearable` fields; one that is also set by its flag is an error. */
export function clearsFromFlags(
  flags: Flags,
  clearable: readonly string[],
  set: Record<string, unknown>,
): Record<string, null> {
  const out: Record<string, null> = {};
  const named = flags.clear;
  for (const name of Array.isArray(named) ? named : []) {
    const spelled = name.trim().replaceAll("-", "_");
    const field = spelled === "expires" ? "expires_at" : spelled;
    if (!clearable.includes(field)) {
      throw new UsageError(
        `--clear ${name}: not a field to clear; use one of ${clearable.join(", ")}`,
      );
    }
    if (field in set) throw new UsageError(`--clear ${name} and ${flagOf(field)} contradict`);
    out[field] = null;
  }
  return out;
}

/** `body` checked by `schema`; a violation is a `UsageError` naming the flag and its value. */
export function checked<T extends z.ZodType>(
  schema: T,
  body: Record<string, unknown>,
  flags: Flags,
): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = String(issue?.path[0] ?? "");
  const flag = flagOf(field);
  const raw = flag?.startsWith("--") ? flags[flag.slice(2)] : undefined;
  const shown = typeof raw === "string" ? ` ${JSON.stringify(raw)}` : "";
  throw new UsageError(`${flag ?? field}${shown}: ${issue?.message ?? "invalid"}`);
}

/** A policy in one line (`rpm=60 budget_usd=20 budget_period=month`), or `-`. */
export function policySummary(policy: Policy): string {
  const parts = Object.entries(policyToWire(policy)).map(([field, value]) =>
    `${field}=${Array.isArray(value) ? value.join(",") : String(value)}`
  );
  return parts.length === 0 ? "-" : parts.join(" ");
}

/** Reads a grace period (`0`, `90s`, `30m`, `1h`, `24h`, `7d`) as seconds. */
export function parseDuration(value: string, flag: string): number {
  const match = /^(\d+)([smhd])$/.exec(value.trim());
  if (value.trim() === "0") return 0;
  if (match === null) {
    throw new UsageError(
      `${flag} ${JSON.stringify(value)}: use a duration such as 0, 90s, 30m, 1h, 24h or 7d`,
    );
  }
  const unit = { s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as "s" | "m" | "h" | "d"];
  return Number(match[1]) * unit;
}
