/**
 * The keys page's operator sections: creating keys with the CLI and the admin API, the admin
 * routes with their CLI equivalents, and every policy field. Field lists, flags, periods and
 * routes come from the code (`governance/policy.ts`, `cli/policy_flags.ts`,
 * `routes/admin_routes.ts`).
 * @module
 */
import { POLICY_FLAGS } from "../../cli/policy_flags.ts";
import {
  BUDGET_PERIODS,
  type BudgetPeriod,
  periodStart,
  type PolicyField,
} from "../../governance/policy.ts";
import { adminRoutes } from "../../routes/admin_routes.ts";
import { code, html, type Part } from "../html.ts";
import type { Site } from "../site.ts";
import { EXAMPLE_NOW } from "./keys_refusals.ts";

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The weekday a `week` budget starts on, as `periodStart` computes it. */
export function weekStartDay(): string {
  return WEEKDAYS[new Date(periodStart("week", EXAMPLE_NOW)).getUTCDay()]!;
}

/** What each budget period means. */
function periodText(period: BudgetPeriod): Part {
  switch (period) {
    case "day":
      return html`the UTC calendar day, from 00:00 UTC`;
    case "week":
      return html`the week from ${weekStartDay()} 00:00 UTC (ISO week)`;
    case "month":
      return html`the calendar month, from the 1st at 00:00 UTC`;
    case "total":
      return html`forever: it never resets`;
  }
}

/** The CLI command doing what each admin route does ("" when only the API does it). */
const CLI: Record<keyof typeof adminRoutes, string> = {
  adminListKeys: "deno task keys list",
  adminCreateKey: "deno task keys create --name NAME [POLICY] [--team ID] [--admin]",
  adminGetKey: "",
  adminUpdateKey: "deno task keys update ID [--name N] [POLICY] [--team ID] [--clear FIELD]",
  adminRevokeKey: "deno task keys revoke ID",
  adminRotateKey: "deno task keys rotate ID [--grace 1h]",
  adminListTeams: "deno task teams list",
  adminCreateTeam: "deno task teams create ID [POLICY]",
  adminGetTeam: "",
  adminUpdateTeam: "deno task teams update ID [POLICY] [--clear FIELD]",
  adminDeleteTeam: "deno task teams delete ID",
  adminUsage: "",
  adminUsageSeries: "",
  adminRequests: "",
  adminDeployments: "",
  adminStatus: "",
};

/** "Creating keys" and the admin route table. */
export function creatingKeys(site: Site): Part {
  const rows = (Object.keys(adminRoutes) as (keyof typeof adminRoutes)[]).map((name) => {
    const route = adminRoutes[name].route;
    return html`
      <tr>
        <td><code>${route.method.toUpperCase()} ${route.path}</code></td>
        <td>${route.summary ?? ""}</td>
        <td>${CLI[name] ? html`<code>${CLI[name]}</code>` : "—"}</td>
      </tr>
    `;
  });
  return html`
    <h2 id="creating-keys">Creating keys</h2>
    <p>With the CLI, on the gateway host or any host that reaches its database (it writes the
    database named by <code>DATABASE_URL</code> or <code>GATEHOUSE_DB</code> directly, so it works
    whether or not the gateway runs). <code>create</code> and
    <code>rotate</code> print the key alone on stdout and everything else on stderr, so
    <code>KEY=$(deno task keys create --name ci)</code> captures exactly the key:</p>
    ${code(
      `deno task keys create --name alice
deno task keys create --name alice --team research --models 'gpt-5*,claude-sonnet-*' \\
  --rpm 60 --tpm 400000 --max-parallel 4 --budget-usd 20 --budget-period month --expires 90d
deno task keys create --name ops --admin      # an admin key, for the admin API`,
      "sh",
    )}
    <p>Or remotely through the admin API, with an admin key. The answer carries the key as
    <code>key</code>, once: only its SHA-256 hash is stored, so it cannot be shown again.</p>
    ${code(
      `curl -s ${site.api}/admin/v1/keys -H "Authorization: Bearer $GATEHOUSE_ADMIN_KEY" \\
  -H "content-type: application/json" \\
  -d '{"name": "alice", "team": "research", "models": ["gpt-5*"], "rpm": 60,
       "budget_usd": 20, "budget_period": "month", "expires_at": "90d"}'`,
      "sh",
    )}
    <p><strong>Admin keys</strong> (<code>--admin</code>, <code>"admin": true</code>) may call the
    <code>/admin/v1</code> routes as well as every model route; on model routes their own policy
    applies like any key's. A normal key on an admin route gets <code>403</code>
    <code>permission_error</code> <code>admin_key_required</code>. The key a gateway prints when it
    first starts on an empty database is an admin key: keep it for administration and give people
    their own keys.
    Request bodies are strict: a misspelt field is a <code>400</code> naming it, never ignored. The
    CLI builds the same bodies from its flags and checks them with the same schemas.</p>
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th>Admin route (admin key)</th>
            <th>What it does</th>
            <th>CLI</th>
          </tr>
        </thead>
        <tbody>${rows}</tbody>
      </table>
    </div>
    <p>The <a href="${site.link(
      "/reference",
    )}">API reference</a> documents every body and answer.</p>
  `;
}

/** What each policy field means. */
function fieldText(field: PolicyField, site: Site): Part {
  const aliased = site.models().find((m) => m.aliases.length > 0);
  const pattern = site.catalog.patterns()[0]?.pattern;
  switch (field) {
    case "models":
      return html`Model ids or globs (<code>*</code> any run of characters, <code>?</code> one
        character, matched against the whole id). Aliases resolve first: a request passes when an
        entry matches the catalog id its model resolves to, one of that model's aliases, or the id
        as sent.${
        aliased
          ? html`
            So <code>${aliased.id}</code> and its alias <code>${aliased.aliases[0]}</code> each
            admit the model by either name.
          `
          : ""
      }${
        pattern
          ? html`
            Ids served by a pattern (<code>${pattern}</code>) are matched as sent.
          `
          : ""
      }
        <code>GET /v1/models</code> lists exactly the models the key may call. An empty list allows
        no model. Refused: <code>403</code>.`;
    case "rpm":
      return html`Requests admitted in any 60 seconds: an exact sliding window (see
        <a href="#counting">how limits are counted</a>).`;
    case "tpm":
      return html`Input + output tokens in any 60 seconds: the input estimate at admission,
        replaced by the real tokens when the request ends.`;
    case "max_parallel":
      return html`Requests in flight at once, streams included.`;
    case "budget_usd":
      return html`US dollars per period at the catalog's prices (the ledger's <code>cost</code>),
        a hard cap under concurrency (see <a href="#budgets">budgets</a>).`;
    case "budget_period":
      return html`${
        BUDGET_PERIODS.map((p, i) => html`${i ? "; " : ""}<code>${p}</code>: ${periodText(p)}`)
      }. Default <code>total</code>; needs <code>budget_usd</code> (a period alone is a
        <code>400</code>), and clearing <code>budget_usd</code> clears it.`;
    case "expires_at":
      return html`A duration from now (<code>30d</code>, <code>12h</code>, <code>90m</code>), a date
        (<code>2027-01-01</code>: 00:00 UTC), an RFC 3339 date-time with <code>Z</code> or an offset,
        or unix seconds (a JSON number in the API; the CLI reads an all-digit value as seconds). It is
        stored as a time and shown in RFC 3339. Past it the key gets <code>401</code>
        <code>expired_api_key</code>; on a team, every key of the team does.`;
  }
}

/** "Policy fields": one row per field, with its CLI flag. */
export function policyFields(site: Site): Part {
  const fields = Object.keys(POLICY_FLAGS) as PolicyField[];
  return html`
    <h2 id="policy">Policy fields</h2>
    <p>Every field is optional: an absent field sets no limit. In a <code>PATCH</code> a field that is
    absent stays as it is and <code>null</code> removes it; the CLI's <code>update</code> removes one
    with <code>--clear FIELD</code> (repeatable). The same fields make a team's policy.</p>
    <div class="table-wrap">
      <table class="policy">
        <thead>
          <tr>
            <th>Field</th>
            <th>CLI flag</th>
            <th>Meaning</th>
          </tr>
        </thead>
        <tbody>${fields.map((field) =>
          html`
            <tr data-field="${field}">
              <td><code>${field}</code></td>
              <td><code>--${POLICY_FLAGS[field]}</code></td>
              <td>${fieldText(field, site)}</td>
            </tr>
          `
        )}
          <tr data-field="team">
            <td><code>team</code> (keys only)</td>
            <td><code>--team</code></td>
            <td>The team whose policy also applies (it must exist: create it first).
            <code>null</code> or <code>--clear team</code> takes the key out of its team.</td>
          </tr>
        </tbody>
      </table>
    </div>
  `;
}
