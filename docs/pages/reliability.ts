/**
 * Reliability: for operators (deployments, fallbacks, the settings, health and `/readyz`, the
 * admin views, graceful shutdown) and for the people calling the gateway (what is retried, and
 * what a client gets when every attempt failed). The sections live in `reliability_*.ts`; every
 * number, status and example error they show is read from the code that produces it.
 * @module
 */
import { html, type Part } from "../html.ts";
import type { Site } from "../site.ts";
import type { DocsPage } from "./page.ts";
import { ATTEMPTS, failureTable } from "./reliability_failures.ts";
import { deploymentsView, health, readyz, shutdown } from "./reliability_health.ts";
import { requestLog } from "./reliability_ledger.ts";
import { deployments, fallbacks } from "./reliability_routing.ts";
import { retried, settings } from "./reliability_settings.ts";

/** The page's path. */
export const RELIABILITY_PATH = "/reliability";

const CONTENTS: [string, string][] = [
  ["deployments", "Deployments"],
  ["fallbacks", "Fallbacks"],
  ["settings", "Settings"],
  ["retries", "What is retried"],
  ["failures", "When every attempt failed"],
  ["health", "Health and cool-down"],
  ["readyz", "GET /readyz"],
  ["deployments-view", "GET /admin/v1/deployments"],
  ["request-log", "The request log"],
  ["shutdown", "Graceful shutdown"],
];

/** "When every attempt failed": the mapping and the table. */
function failures(site: Site): Part {
  return html`
    <h2 id="failures">When every attempt failed</h2>
    <p>The client gets the <strong>last</strong> failure, in its own protocol's envelope — never a
    <code>200</code>, never a provider's raw error body in another protocol's shape. A
    <code>429</code> stays a <code>429</code> with its <code>retry-after</code> (and
    <code>x-should-retry</code> when the provider sent one); overloaded (<code>503</code>,
    <code>529</code>, an overloaded error event) becomes <code>503</code>; timeouts become
    <code>504</code>; other failures <code>502</code>. The message names the provider, its status
    and how many attempts were made. The OpenAI <code>code</code> is the provider's own when it
    sent one, else the gateway's for the kind of failure, as below. A stream that already reached the client cannot be retried:
    it ends with the protocol's terminal error (<a href="${site.link(
      "/errors",
    )}">errors and troubleshooting</a> shows each wire's). The examples assume a model with one
    deployment, no fallback and the default settings, so ${ATTEMPTS} attempts.</p>
    ${failureTable()}
  `;
}

/** `/reliability`. */
export const reliabilityPage: DocsPage = {
  path: RELIABILITY_PATH,
  title: "Reliability",
  render: (site: Site) =>
    html`
      <p>Providers fail: they rate-limit, overload, time out and drop connections. gatehouse retries
      a failed upstream call while nothing has reached the client yet, spreads a model over several
      <strong>deployments</strong>, moves to <strong>fallback</strong> models, rests deployments
      that keep failing, and on shutdown lets requests finish. This page is for operators
      configuring it and for anyone reading the errors that still get through.</p>
      <ul class="contents">${CONTENTS.map(([id, label]) =>
        html`<li><a href="#${id}">${label}</a></li>`
      )}</ul>
      ${deployments()} ${fallbacks(site)} ${settings()} ${retried()} ${failures(site)} ${health()}
      ${readyz(site)} ${deploymentsView()} ${requestLog()} ${shutdown()}
    `,
};
