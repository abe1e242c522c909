/**
 * Keys, limits and budgets: for operators (creating keys and teams, every policy field, what
 * applies when, revocation and rotation) and for the people holding keys (how limits are counted,
 * what a refusal looks like, the rate-limit headers, the usage report). The sections live in
 * `keys_*.ts`; every number they quote is read from the code that enforces it.
 * @module
 */
import { html } from "../html.ts";
import type { Site } from "../site.ts";
import { budgets, counting, whereCounted } from "./keys_counting.ts";
import { creatingKeys, policyFields } from "./keys_manage.ts";
import { changes, teams } from "./keys_teams.ts";
import { headers, refusals, usage } from "./keys_usage.ts";
import type { DocsPage } from "./page.ts";

/** The page's path. */
export const KEYS_PATH = "/keys";

const CONTENTS: [string, string][] = [
  ["creating-keys", "Creating keys"],
  ["policy", "Policy fields"],
  ["teams", "Teams"],
  ["changes", "Changes apply on the next request"],
  ["revoking", "Revoking and rotating"],
  ["counting", "How limits are counted"],
  ["budgets", "Budgets: a hard cap under concurrency"],
  ["where-counted", "Where limits are counted"],
  ["count-tokens", "count_tokens is exempt"],
  ["refusals", "What a refused client sees"],
  ["headers", "Rate-limit headers"],
  ["usage", "Usage reports"],
];

/** `/keys`. */
export const keysPage: DocsPage = {
  path: KEYS_PATH,
  title: "Keys, limits and budgets",
  render: (site: Site) =>
    html`
      <p>Every request carries a gatehouse key. The gateway's operator gives each key a
      <strong>policy</strong> — which models it may call, how many requests and tokens a minute, how
      many at once, how many dollars per day, week, month or in total, until when — and may put keys
      in a <strong>team</strong> whose policy applies on top of their own. This page is for both
      sides: operators creating and changing keys, and the people holding them, who want to know how
      limits are counted and what a refusal means. A key with no policy, in no team with one, has no
      limits.</p>
      <ul class="contents">${CONTENTS.map(([id, label]) =>
        html`<li><a href="#${id}">${label}</a></li>`
      )}</ul>
      ${creatingKeys(site)} ${policyFields(site)} ${teams()} ${changes(
        site,
      )} ${counting()} ${budgets(
        site,
      )} ${whereCounted()} ${refusals(site)} ${headers()} ${usage(site)}
    `,
};
