/**
 * The admin API's bodies, queries and answers (`/admin/v1/...`), in the wire form the CLI shares:
 * `deno task keys` and `deno task teams` build the same bodies from their flags and validate them
 * with these schemas, so one set of rules and messages serves both. Request bodies are strict: a
 * misspelt field is a 400 naming it, never silently ignored. Policy fields are
 * `PolicyWireSchema`'s (`governance/policy.ts`); `null` clears one in a PATCH.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { BUDGET_PERIODS, PolicyWireSchema } from "../governance/policy.ts";
import { UsageLedgerReportSchema } from "./schemas.ts";

/** What a team id looks like: lowercase, 1 to 63 characters, safe in URLs and CLI arguments. */
export const TEAM_ID_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,62}$/;

/** The grace period of a rotation when none is given: a day. */
export const DEFAULT_GRACE_SECONDS = 86_400;

const wire = PolicyWireSchema.shape;

/** The policy fields of every admin body, documented (with zod's own `meta`, which the document
 * generator reads: `PolicyWireSchema` may be built before `.openapi` is added to zod). */
const policyFields = {
  models: wire.models.meta({
    description:
      "Model ids or globs (`*` any run of characters, `?` one) the key may call; absent: every model.",
    example: ["gpt-5*", "claude-sonnet-5"],
  }),
  rpm: wire.rpm.meta({ description: "Requests admitted in any 60 seconds." }),
  tpm: wire.tpm.meta({ description: "Input + output tokens in any 60 seconds." }),
  max_parallel: wire.max_parallel.meta({ description: "Requests in flight at once." }),
  budget_usd: wire.budget_usd.meta({ description: "US dollars per budget period." }),
  budget_period: wire.budget_period.meta({
    description: "The budget's period (UTC calendar day, ISO week, month, or total); needs " +
      "budget_usd. Default: total.",
  }),
  expires_at: wire.expires_at.meta({
    description: "When the key (or every key of the team) stops working: a duration from now " +
      "(30d, 12h, 90m), a date (2027-01-01), an RFC 3339 date-time, or unix seconds.",
    example: "30d",
  }),
};

const teamId = z.string().regex(TEAM_ID_PATTERN, {
  error:
    "a team id is 1 to 63 characters of a-z, 0-9, _ . - starting with a letter or digit (research-1)",
}).openapi({ example: "research" });

const keyName = z.string().trim().min(1, { error: "a key name cannot be empty" }).max(200);

/** `POST /admin/v1/keys`. */
export const CreateKeyBody = z.strictObject({
  name: keyName.openapi({ description: "Who or what holds the key.", example: "alice" }),
  team: teamId.nullable().optional().openapi({ description: "An existing team's id." }),
  admin: z.boolean().optional().openapi({ description: "May call the admin routes." }),
  ...policyFields,
}).openapi("AdminCreateKey");
/** A create-key body. */
export type CreateKeyInput = z.infer<typeof CreateKeyBody>;

/** `PATCH /admin/v1/keys/{id}`: absent fields stay, `null` clears (team, policy fields). */
export const UpdateKeyBody = z.strictObject({
  name: keyName.optional(),
  team: teamId.nullable().optional().openapi({ description: "null: no team." }),
  admin: z.boolean().optional(),
  ...policyFields,
}).openapi("AdminUpdateKey");
/** An update-key body. */
export type UpdateKeyInput = z.infer<typeof UpdateKeyBody>;

/** `POST /admin/v1/keys/{id}/rotate`. */
export const RotateKeyBody = z.strictObject({
  grace_seconds: z.number().int().min(0).max(366 * 86_400).optional().openapi({
    description:
      `How long the old secret keeps working, in seconds (0: it stops at once). Default ${DEFAULT_GRACE_SECONDS} (a day).`,
    example: 3600,
  }),
}).openapi("AdminRotateKey");
/** A rotate body. */
export type RotateKeyInput = z.infer<typeof RotateKeyBody>;

/** `POST /admin/v1/teams`. */
export const CreateTeamBody = z.strictObject({ id: teamId, ...policyFields }).openapi(
  "AdminCreateTeam",
);
/** A create-team body. */
export type CreateTeamInput = z.infer<typeof CreateTeamBody>;

/** `PATCH /admin/v1/teams/{id}`: absent fields stay, `null` clears. */
export const UpdateTeamBody = z.strictObject(policyFields).openapi("AdminUpdateTeam");
/** An update-team body. */
export type UpdateTeamInput = z.infer<typeof UpdateTeamBody>;

/** A key's `{id}` path parameter. */
export const KeyIdParams = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path" },
    description: "The key's id (the part after gth_ in the key; GET /admin/v1/keys lists them).",
    example: "abcdefghij",
  }),
});

/** A team's `{id}` path parameter. */
export const TeamIdParams = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path" },
    description: "The team's id (GET /admin/v1/teams lists them).",
    example: "research",
  }),
});

/** A stored policy (absent fields: no limit). */
export const PolicyObject = z.object({
  models: z.array(z.string()).optional(),
  rpm: z.number().int().optional(),
  tpm: z.number().int().optional(),
  max_parallel: z.number().int().optional(),
  budget_usd: z.number().optional(),
  budget_period: z.enum(BUDGET_PERIODS).optional(),
  expires_at: z.string().optional().openapi({ description: "RFC 3339." }),
}).openapi("Policy");
/** A policy's wire form. */
export type PolicyView = z.infer<typeof PolicyObject>;

/** Where a budget stands in its current period (the admin API's and `GET /v1/usage`'s). */
export const BudgetObject = z.object({
  budget_usd: z.number(),
  period: z.enum(BUDGET_PERIODS),
  period_start: z.string().nullable().openapi({ description: "RFC 3339; null for total." }),
  resets_at: z.string().nullable().openapi({ description: "RFC 3339; null for total." }),
  spent_usd: z.number().openapi({
    description: "Settled spend in the period, plus in_flight_usd.",
  }),
  in_flight_usd: z.number().openapi({
    description: "Held by requests in flight (the larger of each one's reservation and what it " +
      "has spent so far), as GET /v1/usage reads it from the gateway's admission; 0 in the " +
      "admin API and the CLI, which read the ledger (settled spend) alone.",
  }),
  remaining_usd: z.number(),
}).openapi("BudgetStatus");

const time = z.string().openapi({ description: "RFC 3339." });
const maybeTime = z.string().nullable().openapi({ description: "RFC 3339, or null." });

/** A key as the admin API shows it: never its secret. */
export const KeyObject = z.object({
  object: z.literal("key"),
  id: z.string(),
  name: z.string(),
  hint: z.string().openapi({ description: "The key's first characters, safe to show." }),
  admin: z.boolean(),
  team: z.string().nullable(),
  policy: PolicyObject,
  budget: BudgetObject.nullable().openapi({ description: "null when the key has no budget." }),
  expires_at: maybeTime,
  created_at: time,
  last_used_at: maybeTime,
  revoked_at: maybeTime,
  rotated_at: maybeTime,
  previous_valid_until: maybeTime.openapi({
    description: "Until when the secret before the last rotation still works.",
  }),
}).openapi("AdminKey");
/** A key's wire form. */
export type KeyView = z.infer<typeof KeyObject>;

/** A key just created or rotated: the only answers that carry the secret. */
export const NewKeyObject = KeyObject.extend({
  key: z.string().openapi({
    description: "The full key. Shown once: it is not stored and cannot be shown again.",
  }),
}).openapi("AdminNewKey");

/** `GET /admin/v1/keys`. */
export const KeyList = z.object({ object: z.literal("list"), data: z.array(KeyObject) }).openapi(
  "AdminKeyList",
);

/** A team as the admin API shows it. */
export const TeamObject = z.object({
  object: z.literal("team"),
  id: z.string(),
  policy: PolicyObject,
  budget: BudgetObject.nullable().openapi({
    description: "The team's budget over all its keys; null when it has none.",
  }),
  keys: z.number().int().openapi({ description: "Keys in the team, revoked ones not counted." }),
  created_at: time,
  updated_at: time,
}).openapi("AdminTeam");
/** A team's wire form. */
export type TeamView = z.infer<typeof TeamObject>;

/** `GET /admin/v1/teams`. */
export const TeamList = z.object({ object: z.literal("list"), data: z.array(TeamObject) })
  .openapi("AdminTeamList");

/** `DELETE /admin/v1/teams/{id}`. */
export const TeamDeleted = z.object({
  object: z.literal("team.deleted"),
  id: z.string(),
  deleted: z.literal(true),
}).openapi("AdminTeamDeleted");

/** What `GET /admin/v1/usage` groups by. */
export const ADMIN_GROUP_BY = ["key", "team", "model", "day"] as const;

/** `GET /admin/v1/usage`. */
export const AdminUsageQuery = z.object({
  start: z.string().optional().openapi({
    description: "Window start: RFC 3339 date or date-time, or unix seconds. Default: 30 days ago.",
    example: "2026-11-01",
  }),
  end: z.string().optional().openapi({
    description: "Window end (exclusive), same forms. Default: now.",
  }),
  group_by: z.enum(ADMIN_GROUP_BY).optional(),
  key_id: z.string().optional().openapi({ description: "Only this key's requests." }),
  team: z.string().optional().openapi({
    description: "Only the requests of keys now in this team.",
  }),
});

const totals = UsageLedgerReportSchema.shape.totals;
const group = totals.extend({
  key: z.string().openapi({
    description: 'Key id, team id ("" for keys without a team), model id, or UTC day.',
  }),
});

/** The `GET /admin/v1/usage` answer. */
export const AdminUsageReport = z.object({
  object: z.literal("usage_report"),
  key_id: z.string().nullable(),
  team: z.string().nullable(),
  start: time,
  end: time,
  group_by: z.enum(ADMIN_GROUP_BY).nullable(),
  totals,
  groups: z.array(group).optional(),
}).openapi("AdminUsageReport");
