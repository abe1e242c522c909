/**
 * The errors page's section on keys and limits: the 401s of an expired, revoked or rotated key,
 * the 403s of a model or route the key may not call, the 429s of the key's or team's limits and
 * budget, and the stream a budget cuts. Its rows are the keys page's refusal table
 * (`keys_refusals.ts`), so both pages say the same.
 * @module
 */
import { html, type Part } from "../html.ts";
import type { Site } from "../site.ts";
import { KEYS_PATH } from "./keys.ts";
import { refusalSummary } from "./keys_refusals.ts";

/** "Keys, limits and budgets" on the errors page. */
export function limitErrors(site: Site): Part {
  const keys = site.link(KEYS_PATH);
  return html`
    <h2 id="limits">Keys, limits and budgets</h2>
    <p>After the model, the gateway checks the key's policy and its team's
    (<a href="${keys}">keys, limits and budgets</a>): the <code>models</code> it may call
    (<code>403</code>), then its budget, requests in flight, requests and tokens per minute
    (<code>429</code>). A key past its expiry, revoked, or an old secret after its rotation's grace
    period gets a <code>401</code> that says which and when. A <code>429</code> from the gateway
    names the limit (<q>this key</q> or the team, and its number) and carries
    <code>retry-after</code> when waiting will cure it; a provider's own <code>429</code> is
    forwarded as it came.</p>
    ${refusalSummary()}
    <p>The <a href="${keys}#refusals">keys page's table</a> has the <code>retry-after</code> of each
    and an example message.</p>
  `;
}
