/**
 * The admin rows of the route table (`table.ts` spreads them into its one `routes`): keys, teams,
 * everyone's usage (totals and series), the ledger's requests, the deployments' health and the
 * live in-flight counts under `/admin/v1`, for admin keys only (`ADMIN`: the `admin` role on the
 * bearer scheme). No bare twins: the prefix is not `/v1`.
 * @module
 */
import { ADMIN } from "./security.ts";
import {
  AdminUsageQuery,
  AdminUsageReport,
  CreateKeyBody,
  CreateTeamBody,
  KeyIdParams,
  KeyList,
  KeyObject,
  NewKeyObject,
  RotateKeyBody,
  TeamDeleted,
  TeamIdParams,
  TeamList,
  TeamObject,
  UpdateKeyBody,
  UpdateTeamBody,
} from "./admin_schemas.ts";
import {
  AdminDeploymentList,
  AdminRequestList,
  AdminRequestsQuery,
} from "./admin_traffic_schemas.ts";
import { AdminSeries, AdminSeriesQuery, AdminStatus } from "./admin_dashboard_schemas.ts";
import { body, json, row } from "./table_row.ts";

const ERRORS = [400, 401, 403];
const ID_ERRORS = [400, 401, 403, 404];
const ADMIN_TEXT = {
  400: "A schema violation (the message names the field), or a value the store refuses.",
  403: "The key is not an admin key: create one with `deno task keys create --name NAME --admin`.",
};
const KEY_TEXT = { ...ADMIN_TEXT, 404: "No such key (GET /admin/v1/keys lists them)." };
const TEAM_TEXT = { ...ADMIN_TEXT, 404: "No such team (GET /admin/v1/teams lists them)." };
const KEY_EXAMPLE = {
  name: "alice",
  models: ["gpt-5*"],
  rpm: 60,
  budget_usd: 20,
  budget_period: "month",
  expires_at: "90d",
};
const common = { security: ADMIN, tags: ["Admin"] };

/** The admin rows. Keys name the handlers (`handlers/admin_register.ts`). */
export const adminRoutes = {
  adminListKeys: row("openai", ERRORS, {
    ...common,
    method: "get",
    path: "/admin/v1/keys",
    operationId: "adminListKeys",
    summary: "List every key (never a secret), with its spend when it has a budget",
    responses: { 200: json(KeyList, "The keys, revoked ones included.") },
  }, ADMIN_TEXT),
  adminCreateKey: row("openai", ERRORS, {
    ...common,
    method: "post",
    path: "/admin/v1/keys",
    operationId: "adminCreateKey",
    summary: "Create a key; the answer carries its secret, once",
    request: body(CreateKeyBody, KEY_EXAMPLE),
    responses: { 200: json(NewKeyObject, "The key, with `key`: copy it now.") },
  }, ADMIN_TEXT),
  adminGetKey: row("openai", ID_ERRORS, {
    ...common,
    method: "get",
    path: "/admin/v1/keys/{id}",
    operationId: "adminGetKey",
    summary: "One key (never its secret)",
    request: { params: KeyIdParams },
    responses: { 200: json(KeyObject, "The key.") },
  }, KEY_TEXT),
  adminUpdateKey: row("openai", ID_ERRORS, {
    ...common,
    method: "patch",
    path: "/admin/v1/keys/{id}",
    operationId: "adminUpdateKey",
    summary: "Change a key's name, team, admin flag or policy (null clears a field)",
    request: { params: KeyIdParams, ...body(UpdateKeyBody, { rpm: 120, budget_usd: null }) },
    responses: { 200: json(KeyObject, "The changed key.") },
  }, KEY_TEXT),
  adminRevokeKey: row("openai", ID_ERRORS, {
    ...common,
    method: "delete",
    path: "/admin/v1/keys/{id}",
    operationId: "adminRevokeKey",
    summary: "Revoke a key (at once in this gateway, within a second elsewhere)",
    request: { params: KeyIdParams },
    responses: { 200: json(KeyObject, "The key, with revoked_at.") },
  }, KEY_TEXT),
  adminRotateKey: row("openai", [...ID_ERRORS, 409], {
    ...common,
    method: "post",
    path: "/admin/v1/keys/{id}/rotate",
    operationId: "adminRotateKey",
    summary: "Issue a new secret for a key; the old one works for the grace period",
    request: { params: KeyIdParams, ...body(RotateKeyBody, { grace_seconds: 3600 }) },
    responses: { 200: json(NewKeyObject, "The key, with its new secret as `key`, once.") },
  }, { ...KEY_TEXT, 409: "The key is revoked: create a new one." }),
  adminListTeams: row("openai", ERRORS, {
    ...common,
    method: "get",
    path: "/admin/v1/teams",
    operationId: "adminListTeams",
    summary: "List the teams, with their key counts and spend",
    responses: { 200: json(TeamList, "The teams.") },
  }, ADMIN_TEXT),
  adminCreateTeam: row("openai", [...ERRORS, 409], {
    ...common,
    method: "post",
    path: "/admin/v1/teams",
    operationId: "adminCreateTeam",
    summary: "Create a team: a policy its keys share, on top of their own",
    request: body(CreateTeamBody, { id: "research", budget_usd: 500, budget_period: "month" }),
    responses: { 200: json(TeamObject, "The team.") },
  }, { ...ADMIN_TEXT, 409: "The team id is taken." }),
  adminGetTeam: row("openai", ID_ERRORS, {
    ...common,
    method: "get",
    path: "/admin/v1/teams/{id}",
    operationId: "adminGetTeam",
    summary: "One team",
    request: { params: TeamIdParams },
    responses: { 200: json(TeamObject, "The team.") },
  }, TEAM_TEXT),
  adminUpdateTeam: row("openai", ID_ERRORS, {
    ...common,
    method: "patch",
    path: "/admin/v1/teams/{id}",
    operationId: "adminUpdateTeam",
    summary: "Change a team's policy (null clears a field)",
    request: { params: TeamIdParams, ...body(UpdateTeamBody, { rpm: 600, tpm: null }) },
    responses: { 200: json(TeamObject, "The changed team.") },
  }, TEAM_TEXT),
  adminDeleteTeam: row("openai", [...ID_ERRORS, 409], {
    ...common,
    method: "delete",
    path: "/admin/v1/teams/{id}",
    operationId: "adminDeleteTeam",
    summary: "Delete a team that no live key belongs to",
    request: { params: TeamIdParams },
    responses: { 200: json(TeamDeleted, "Deleted.") },
  }, { ...TEAM_TEXT, 409: "Keys still belong to the team: move or revoke them first." }),
  adminUsage: row("openai", ERRORS, {
    ...common,
    method: "get",
    path: "/admin/v1/usage",
    operationId: "adminUsage",
    summary: "Everyone's usage totals, optionally filtered by key or team and grouped",
    request: { query: AdminUsageQuery },
    responses: { 200: json(AdminUsageReport, "The report.") },
  }, ADMIN_TEXT),
  adminUsageSeries: row("openai", ERRORS, {
    ...common,
    method: "get",
    path: "/admin/v1/usage/series",
    operationId: "adminUsageSeries",
    summary: "Spend, tokens, requests, errors and latency percentiles over time, per bucket",
    description: "The ledger aggregated by the database in UTC-aligned buckets over the last " +
      "24 hours, 7 days or 30 days: spend, tokens and requests split by model, key or team, " +
      "and each bucket's errors and p50/p95 latency and time to first byte (the dashboard's " +
      "charts).",
    request: { query: AdminSeriesQuery },
    responses: { 200: json(AdminSeries, "The series.") },
  }, ADMIN_TEXT),
  adminRequests: row("openai", ERRORS, {
    ...common,
    method: "get",
    path: "/admin/v1/requests",
    operationId: "adminRequests",
    summary: "Recent requests, newest first, each with its upstream attempts (provider, outcome)",
    description: "The ledger's rows: what each request asked for, which model and provider " +
      "served it, every upstream call it took (retries and fallbacks), its outcome, tokens, " +
      "cost and timings. Never a prompt or a secret.",
    request: { query: AdminRequestsQuery },
    responses: { 200: json(AdminRequestList, "The requests, newest first.") },
  }, ADMIN_TEXT),
  adminDeployments: row("openai", [401, 403], {
    ...common,
    method: "get",
    path: "/admin/v1/deployments",
    operationId: "adminDeployments",
    summary: "Every deployment with its health: state, in flight, recent errors, cool-down",
    description: "Each provider deployment routing may pick, of every model then every " +
      "pattern, with its circuit breaker as this gateway process sees it (the health is kept " +
      "in memory, per process).",
    responses: { 200: json(AdminDeploymentList, "The deployments, in catalog order.") },
  }, { 403: ADMIN_TEXT[403] }),
  adminStatus: row("openai", [401, 403], {
    ...common,
    method: "get",
    path: "/admin/v1/status",
    operationId: "adminStatus",
    summary: "Requests in flight and streams open in this gateway process, now",
    responses: { 200: json(AdminStatus, "The live state.") },
  }, { 403: ADMIN_TEXT[403] }),
};
