/**
 * The keys page's sections for the people holding keys: what a refused client sees, the
 * rate-limit headers of each route family, and the usage reports (`GET /v1/usage` and the
 * admin's `GET /admin/v1/usage`). Field lists are typed against the route table's schemas, so a
 * field added there without a line here fails the type check.
 * @module
 */
import { isMessagesRoute, type LimitView, rateHeaders } from "../../governance/rate_headers.ts";
import { ADMIN_GROUP_BY, AdminUsageQuery, BudgetObject } from "../../routes/admin_schemas.ts";
import { UsageReportSchema } from "../../routes/handlers/usage_limits.ts";
import { routes } from "../../routes/table.ts";
import { code, html, type Part } from "../html.ts";
import type { Site } from "../site.ts";
import { COUNT_TOKENS_ROUTE } from "../../governance/governor.ts";
import { EXAMPLE_NOW, REFUSALS, refusalTable, shouldRetryOf } from "./keys_refusals.ts";

/** "What a refused client sees": the refusal table. */
export function refusals(site: Site): Part {
  return html`
    <h2 id="refusals">What a refused client sees</h2>
    <p>Every refusal is JSON in the envelope the route speaks (OpenAI routes
    <code>{"error": {"message", "type", "param", "code"}}</code>, <code>/v1/messages</code>
    <code>{"type": "error", "error": {"type", "message"}}</code>), and its message names the limit —
    the key's or its team's, with its number —, where the request stands, and when or how to go on.
    A <code>retry-after</code> (seconds) is sent whenever waiting will cure it. The messages below
    are examples the gateway's own code wrote; the <a href="${site.link(
      "/errors",
    )}">errors page</a> lists every other error.</p>
    ${refusalTable()}
    ${REFUSALS.some((r) => shouldRetryOf(r) !== undefined)
      ? html`<p>The gateway's <code>429</code>s also carry <code>x-should-retry</code> (Anthropic's
        header, which Claude Code and the SDKs read before <code>retry-after</code>):
        <code>false</code> when no short wait can cure the refusal, so a client does not resend a
        request that cannot pass.</p>`
      : ""}
    <p>A spent budget is <code>insufficient_quota</code> on OpenAI routes (Codex stops on it rather
    than retrying) and <code>rate_limit_error</code> on <code>/v1/messages</code>, whose envelope has
    no type of its own for it: read the message. A provider's own <code>429</code> is forwarded with
    its <code>Retry-After</code>; the gateway's own name the key (<q>this key</q>) or the team.</p>
  `;
}

/** Example views the header tables are computed from: 42 of 60 requests left, 151,234 of
 * 200,000 tokens. */
const REQUESTS: LimitView = {
  scope: "key",
  limit: 60,
  remaining: 42,
  resetAt: EXAMPLE_NOW + 37_500,
};
const TOKENS: LimitView = {
  scope: "team",
  limit: 200_000,
  remaining: 151_234,
  resetAt: EXAMPLE_NOW + 59_200,
};

/** The rate-limit headers `route` gets for the example views, as `rateHeaders` writes them. */
export function exampleHeaders(route: string): Record<string, string> {
  return rateHeaders(route, EXAMPLE_NOW, REQUESTS, TOKENS) ?? {};
}

/** A two-column table of a route family's headers with example values. */
export function headerTable(route: string): Part {
  return html`
    <table>
      <thead>
        <tr>
          <th>Header</th>
          <th>Example</th>
        </tr>
      </thead>
      <tbody>${Object.entries(exampleHeaders(route)).map(([name, value]) =>
        html`
          <tr>
            <td><code>${name}</code></td>
            <td><code>${value}</code></td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

/** The model routes and the header family each gets. */
function families(): Part {
  const paths = [
    routes.chatCompletions,
    routes.responses,
    routes.imagesGenerations,
    routes.messages,
    routes.countTokens,
  ].map((spec) => spec.route.path);
  return html`<ul>${
    paths.map((path) =>
      html`<li><code>${path}</code>: ${
        path === COUNT_TOKENS_ROUTE
          ? "none (exempt from every limit but models)"
          : isMessagesRoute(path)
          ? html`<code>anthropic-ratelimit-*</code>`
          : html`<code>x-ratelimit-*</code>`
      }</li>`
    )
  }</ul>`;
}

/** "Rate-limit headers". */
export function headers(): Part {
  return html`
    <h2 id="headers">Rate-limit headers</h2>
    <p>When the key or its team has an <code>rpm</code> or <code>tpm</code>, model responses carry
    rate-limit headers in the form the client's own SDK reads from its vendor, so agents pace
    themselves as they would against OpenAI or Anthropic:</p>
    ${families()}
    <p>Only the limits that are set appear (<code>requests</code> for <code>rpm</code>,
    <code>tokens</code> for <code>tpm</code>), each the tighter of key and team. On an answer the
    figures count the request itself; the gateway's <code>429</code> refusals carry them too. The
    reset is when the limit is fully replenished (the newest request it counts is 60 s old): a
    duration on OpenAI routes, an RFC 3339 time on Messages. Image generation shows the
    <code>tpm</code> window too, though images do not enter it. Budgets have no headers:
    <code>GET /v1/usage</code> reports them.</p>
    <div class="columns">
      <div><h3>OpenAI routes</h3>${headerTable(routes.chatCompletions.route.path)}</div>
      <div><h3>Messages</h3>${headerTable(routes.messages.route.path)}</div>
    </div>
  `;
}

const USAGE_FIELDS: Record<keyof typeof UsageReportSchema.shape, Part> = {
  object: html`<code>"usage_report"</code>.`,
  key_id: "The calling key's id (never its secret).",
  start: html`Window start (RFC 3339, inclusive); <code>?start=</code> takes a date, an RFC 3339
    date-time or unix seconds. Default: 30 days before <code>end</code>.`,
  end: html`Window end (exclusive), same forms. Default: now.`,
  group_by: html`<code>?group_by=model</code> or <code>day</code> (UTC), else null.`,
  totals: html`<code>requests</code>, <code>input_tokens</code>, <code>output_tokens</code>,
    <code>cached_tokens</code>, <code>cache_write_tokens</code>, <code>reasoning_tokens</code>,
    <code>images</code>, <code>cost</code> (US dollars) and <code>outcomes</code>: a count per
    outcome, <code>rejected</code> and <code>budget_cut</code> included.`,
  groups: html`With <code>group_by</code>: the same totals per model id or day, as
    <code>key</code>.`,
  policy: "The key's own policy (absent fields: no limit).",
  team: "The key's team, or null.",
  team_policy: "The team's policy, or null.",
  budget: "The key's own budget in its current period (below), or null.",
  team_budget: "The team's budget over all its keys, or null.",
  rate_limits: html`<code>requests</code> and <code>tokens</code> as <code>{scope, limit,
    remaining, reset_at}</code>, <code>parallel</code> as <code>{scope, limit, in_flight}</code>:
    each the tighter of key and team now, before this request; null when neither sets it.`,
};

const BUDGET_FIELDS: Record<keyof typeof BudgetObject.shape, Part> = {
  budget_usd: "The budget.",
  period: html`<code>day</code>, <code>week</code>, <code>month</code> or <code>total</code>.`,
  period_start: "When the current period began (RFC 3339; null for total).",
  resets_at: "When it ends (RFC 3339; null for total).",
  spent_usd: html`Settled spend this period plus <code>in_flight_usd</code>: what admission
    counts.`,
  in_flight_usd: html`What requests in flight hold (the larger of each one's reservation and its
    spend so far), as the answering gateway process counts them; always 0 in the admin API and the
    CLI, which read the ledger alone.`,
  remaining_usd: "What is left, never below 0.",
};

const ADMIN_QUERY: Record<keyof typeof AdminUsageQuery.shape, Part> = {
  start: "Window start, as above (default: 30 days before end).",
  end: "Window end (exclusive; default: now).",
  group_by: html`${ADMIN_GROUP_BY.map((g, i) => html`${i ? ", " : ""}<code>${g}</code>`)}.`,
  key_id: "Only this key's requests.",
  team: "Only the requests of the keys in this team now.",
};

function fieldRows(fields: Record<string, Part>): Part {
  return Object.entries(fields).map(([name, text]) =>
    html`
      <tr data-usage-field="${name}">
        <td><code>${name}</code></td>
        <td>${text}</td>
      </tr>
    `
  );
}

/** "Usage reports". */
export function usage(site: Site): Part {
  return html`
    <h2 id="usage">Usage reports</h2>
    <p>Any key reads its own report, with its policy and where its limits stand:</p>
    ${code(
      `curl -s "${site.api}/v1/usage?group_by=day&start=2026-01-01" \\
  -H "Authorization: Bearer $GATEHOUSE_API_KEY"`,
      "sh",
    )}
    <table>
      <thead>
        <tr>
          <th><code>GET /v1/usage</code> field</th>
          <th>Meaning</th>
        </tr>
      </thead>
      <tbody>${fieldRows(USAGE_FIELDS)}</tbody>
    </table>
    <table>
      <thead>
        <tr>
          <th>Budget field</th>
          <th>Meaning</th>
        </tr>
      </thead>
      <tbody>${fieldRows(BUDGET_FIELDS)}</tbody>
    </table>
    <p>An admin key reads everyone's ledger with <code>GET /admin/v1/usage</code>: the same totals,
    optionally filtered and grouped. Grouped by team, each key counts under its current team
    (<code>""</code> for keys without one). <code>GET /admin/v1/keys</code> and
    <code>/admin/v1/teams</code> (and <code>deno task keys list</code>, <code>teams list</code>) show
    each budget in its current period.</p>
    ${code(
      `curl -s "${site.api}/admin/v1/usage?group_by=key&team=research" \\
  -H "Authorization: Bearer $GATEHOUSE_ADMIN_KEY"`,
      "sh",
    )}
    <table>
      <thead>
        <tr>
          <th>Query</th>
          <th>Meaning</th>
        </tr>
      </thead>
      <tbody>${fieldRows(ADMIN_QUERY)}</tbody>
    </table>
  `;
}
