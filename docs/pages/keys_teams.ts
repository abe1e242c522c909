/**
 * The keys page's sections on teams, on changing keys (what applies when), and on revocation
 * and rotation. The grace period and the key-change interval come from the code
 * (`routes/admin_schemas.ts`, `store/verified_keys.ts`).
 * @module
 */
import { DEFAULT_GRACE_SECONDS } from "../../routes/admin_schemas.ts";
import { KEYS_CHECK_INTERVAL_MS } from "../../store/verified_keys.ts";
import { code, html, type Part } from "../html.ts";
import type { Site } from "../site.ts";

/** The default rotation grace as people say it: `24 h`. */
export function defaultGrace(): string {
  const hours = DEFAULT_GRACE_SECONDS / 3600;
  return Number.isInteger(hours) ? `${hours} h` : `${DEFAULT_GRACE_SECONDS} s`;
}

/** "Teams". */
export function teams(): Part {
  return html`
    <h2 id="teams">Teams</h2>
    <p>A team is a policy its keys share, on top of each key's own. Both apply to every request of
    the key, and the request must pass both: each limit is checked for the key, then for its
    team.</p>
    ${code(
      `deno task teams create research --budget-usd 500 --budget-period month --rpm 600
deno task keys update <key id> --team research
deno task teams update research --max-parallel 20 --clear rpm
deno task teams list
deno task teams delete research     # once no live key belongs to it`,
      "sh",
    )}
    <ul>
      <li><strong>Shared counters.</strong> A team's <code>rpm</code> and <code>tpm</code> windows,
      its requests in flight and its budget count the requests of all its keys together: a team
      <code>rpm</code> of 600 is 600 requests a minute from all of them, whatever each key's own
      <code>rpm</code> allows.</li>
      <li><strong>The tighter wins.</strong> A key with <code>rpm</code> 60 in a team with
      <code>rpm</code> 600 is refused at 60, or earlier when the team's other keys have used the
      team's 600. The rate-limit headers and <code>GET /v1/usage</code> report, for each limit, the
      one with less room (its <code>scope</code> says whether the key's or the team's).</li>
      <li><strong><code>models</code></strong>: both lists must allow the model.
      <strong><code>expires_at</code></strong> on a team ends every key of the team at that time
      (or at the key's own expiry, whichever comes first).</li>
      <li><strong>Ids</strong> are 1 to 63 characters of <code>a-z 0-9 _ . -</code>, starting with a
      letter or digit. A team with live keys cannot be deleted (<code>409</code>): move or revoke
      them first. Revoked keys keep their team's id, so reports by team keep their history.</li>
      <li><strong>Reports and team budgets</strong> read the ledger rows of the keys that are in the
      team now, so a key moved to another team takes its history along.</li>
    </ul>
  `;
}

/** "Changes apply on the next request", revocation and rotation. */
export function changes(site: Site): Part {
  return html`
    <h2 id="changes">Changes apply on the next request</h2>
    <p>A policy edit, a team's edit, a key moved between teams, a revocation or a rotation needs no
    restart: it applies from the next request. Made through a gateway's own admin API, it applies in
    that gateway at once. Every other process on the same database (other gateway instances, and
    the gateway when you use the CLI) sees it within about a second: each re-reads the database's
    key generation, which every key or team change bumps, at most every
    ${KEYS_CHECK_INTERVAL_MS} ms, and forgets the keys it had verified when it moved.</p>
    <ul>
      <li>An <code>rpm</code> edit keeps the newest admissions that fit the new limit; a
      <code>tpm</code> or <code>budget_usd</code> edit applies to the window or spend as it
      stands.</li>
      <li>A new <code>budget_period</code> reads that period's settled spend from the ledger; a
      budget removed is forgotten, so one added later starts from the ledger too.</li>
      <li>A request already admitted keeps the policy it was admitted under: a stream that is
      running when its budget is lowered, or when its key is revoked, goes on (it is still cut at
      the budget it was admitted under).</li>
    </ul>

    <h2 id="revoking">Revoking and rotating</h2>
    ${code(
      `deno task keys revoke <key id>
deno task keys rotate <key id>              # old secret works ${defaultGrace()} more
deno task keys rotate <key id> --grace 1h   # or 0, 90s, 30m, 7d
curl -s -X DELETE ${site.api}/admin/v1/keys/<key id> -H "Authorization: Bearer $GATEHOUSE_ADMIN_KEY"
curl -s ${site.api}/admin/v1/keys/<key id>/rotate -H "Authorization: Bearer $GATEHOUSE_ADMIN_KEY" \\
  -H "content-type: application/json" -d '{"grace_seconds": 0}'`,
      "sh",
    )}
    <p><strong>Revocation</strong> is permanent. The key stays in the list with
    <code>revoked_at</code> and its ledger history; its requests get <code>401</code>
    <code>invalid_api_key</code> saying when it was revoked. Revoking twice changes nothing; a
    revoked key cannot be rotated (<code>409</code>): create a new one.</p>
    <p><strong>Rotation</strong> issues a new secret for the same key: same id, policy, team and
    history. The new key is shown once. The old secret keeps working for the grace period —
    default ${defaultGrace()} (<code>grace_seconds</code> ${DEFAULT_GRACE_SECONDS}), and
    <code>0</code> ends it at once — then gets <code>401</code> <code>invalid_api_key</code> saying the
    key was rotated. <code>previous_valid_until</code> in the key's admin view says until when. Only
    the secret from just before the last rotation is kept: rotating again ends any older one at
    once.</p>
  `;
}
