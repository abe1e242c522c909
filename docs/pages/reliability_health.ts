/**
 * The reliability page's sections on deployment health: the circuit breaker per deployment
 * (`gateway/health.ts`), `/readyz` (`gateway/readiness.ts`), the admin view of the deployments
 * (`GET /admin/v1/deployments`, its example rendered by the handler's own wire form), and the
 * graceful shutdown (`gateway/shutdown.ts`, `gateway/in_flight.ts`).
 * @module
 */
import { type DeploymentState, RECENT_WINDOW_MS } from "../../gateway/health.ts";
import { SETTLE_MS } from "../../gateway/shutdown.ts";
import { shuttingDown } from "../../gateway/in_flight.ts";
import type { deploymentWire } from "../../routes/handlers/admin_deployments.ts";
import { code, html, type Part } from "../html.ts";
import type { Site } from "../site.ts";
import { DEFAULTS, exampleDeploymentId, exampleDeploymentsJson } from "./reliability_example.ts";
import { duration } from "./reliability_settings.ts";

/** What each state means. */
export const STATES: Record<DeploymentState, Part> = {
  healthy: html`Takes traffic.`,
  cooling: html`Rests: no request goes to it until its cool-down ends.`,
  probing: html`Its cool-down after failures is over: it takes one request at a time (the probe)
  until one succeeds (→ <code>healthy</code>) or fails (→ <code>cooling</code> again).`,
};

/** What each field of `GET /admin/v1/deployments` holds. */
export const DEPLOYMENT_FIELDS: Record<keyof ReturnType<typeof deploymentWire>, Part> = {
  id: html`<code>&lt;model id or pattern&gt;@&lt;provider&gt;</code>, with
  <code>#&lt;index&gt;</code> when a model lists one provider twice; demo mode has one
  <code>&lt;id&gt;@mock</code> per model.`,
  model: html`The catalog id it serves (null for a pattern's).`,
  pattern: html`The pattern it serves (null for a model's).`,
  provider: html`The provider name, a key of <code>providers</code>.`,
  upstream_id: html`The model id sent to that provider.`,
  weight: html`Its share of the model's traffic.`,
  listed: html`Whether <code>GET /v1/models</code> shows its model.`,
  state: html`<code>healthy</code>, <code>cooling</code> or <code>probing</code>.`,
  in_flight: html`Upstream calls running on it now.`,
  consecutive_failures: html`Retryable failures counted towards the cool-down since its last
  success (one overtaken by another call's answer is not counted: see below).`,
  recent: html`The last ${duration(RECENT_WINDOW_MS)}: <code>requests</code> (upstream calls),
  <code>errors</code> (of which failed) and <code>error_rate</code>.`,
  cooldown_until: html`When its cool-down ends (RFC 3339) while cooling, else null.`,
  last_error: html`Its last failure, or null.`,
};

/** "Health and cool-down". */
export function health(): Part {
  const failures = DEFAULTS.cooldownFailures;
  const rest = duration(DEFAULTS.cooldownMs);
  return html`
    <h2 id="health">Health and cool-down</h2>
    <p>Each gateway process keeps a circuit breaker per deployment, in memory (a restart forgets
    it; several instances each keep their own). A deployment is in one of three states:</p>
    <table>
      <thead>
        <tr>
          <th>State</th>
          <th>Meaning</th>
        </tr>
      </thead>
      <tbody>${Object.entries(STATES).map(([state, meaning]) =>
        html`
          <tr data-state="${state}">
            <td><code>${state}</code></td>
            <td>${meaning}</td>
          </tr>
        `
      )}</tbody>
    </table>
    <ul>
      <li><strong>Cool-down after failures.</strong> <code>GATEHOUSE_COOLDOWN_FAILURES</code>
      (${failures}) retryable failures in a row cool a deployment down for
      <code>GATEHOUSE_COOLDOWN_SECONDS</code> (${rest}); then it probes. A stream that breaks or
      goes silent after its answer began counts as a failure too. Any answer that goes to the
      client — a <code>4xx</code> included — is a success and resets the count. Under concurrency
      a failure counts only when no other attempt on the deployment was answered while it ran, or
      when failures are at least half of its attempts of the last 10-20 s: a burst of slow
      connections that fail together while other requests are answered does not take a model's
      only deployment offline (nor stop those requests' retries); a deployment that answers
      nothing still cools after the same count.</li>
      <li><strong>A failure with <code>retry-after</code></strong> (a <code>429</code>, often a
      <code>503</code>) cools the deployment for exactly that long, after which it is healthy again
      without a probe: the provider said when it takes traffic.</li>
      <li><strong>Routing skips</strong> cooling deployments, and a probing one whose probe is
      running. When no deployment of the model nor of any fallback can take the request, the
      client gets <code>503</code> <code>no_healthy_deployment</code> at once, with
      <code>retry-after</code> set to the seconds until the first cool-down ends (<a
      href="#failures">failure table</a>).</li>
    </ul>
  `;
}

/** "`GET /readyz`". */
export function readyz(site: Site): Part {
  return html`
    <h2 id="readyz"><code>GET /readyz</code></h2>
    <p>Readiness for a load balancer or an orchestrator (<code>GET /healthz</code> is liveness: it
    answers <code>200</code> while the process runs). <code>${site.api}/readyz</code> answers
    <code>200</code> with <code>{"status": "ok", "checks": {"store": "ok", "deployments":
    "ok"}}</code>, or <code>503</code> with <code>"status": "unavailable"</code> and a
    <code>reasons</code> list when:</p>
    <ul>
      <li>the store fails (<code>store: …</code> with its error);</li>
      <li>the process is shutting down (<code>shutting down: SIGTERM received, N requests in
      flight</code>);</li>
      <li>no deployment of any listed model or pattern is usable: each is then named, cooling
      until its cool-down's end or probing; one usable deployment is enough for
      <code>200</code> (the built-in mock provider is always usable);</li>
      <li>no model can be served at all (no provider credential is set).</li>
    </ul>
  `;
}

/** "`GET /admin/v1/deployments`". */
export function deploymentsView(): Part {
  return html`
    <h2 id="deployments-view"><code>GET /admin/v1/deployments</code></h2>
    <p>Every deployment routing may pick — of every model, then every pattern — with its breaker as
    the answering process sees it (admin key). Here, the example's
    <code>${exampleDeploymentId("openai-b")}</code> after ${DEFAULTS.cooldownFailures} failures in
    a row, while <code>${exampleDeploymentId("openai-a")}</code> serves two requests:</p>
    ${code(exampleDeploymentsJson(), "json")}
    <table>
      <thead>
        <tr>
          <th>Field</th>
          <th>Meaning</th>
        </tr>
      </thead>
      <tbody>${Object.entries(DEPLOYMENT_FIELDS).map(([field, meaning]) =>
        html`
          <tr data-deployment-field="${field}">
            <td><code>${field}</code></td>
            <td>${meaning}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

/** "Graceful shutdown". */
export function shutdown(): Part {
  const error = shuttingDown("SIGTERM");
  const drain = duration(DEFAULTS.drainMs);
  return html`
    <h2 id="shutdown">Graceful shutdown</h2>
    <p>On the first SIGTERM or SIGINT the gateway drains:</p>
    <ol>
      <li><code>/readyz</code> answers <code>503</code> at once, and the listeners stop accepting
      connections. A model request that still arrives (on a connection already open) gets
      <code>${error.status}</code> <code>${error.code}</code>.</li>
      <li>Requests in flight, streams included, run to their end for up to
      <code>GATEHOUSE_DRAIN_SECONDS</code> (${drain}).</li>
      <li>What still runs then is ended: a stream with the client protocol's terminal error, a
      request still waiting on its upstream with <code>${error.status}</code>
      <code>${error.code}</code> (<code>retry-after: ${error.headers["retry-after"]}</code>):
      <q>${error.message}</q> Their outcome is <code>shutdown</code>; what was streamed is
      billed.</li>
      <li>The gateway waits up to ${duration(SETTLE_MS.afterDrain)} for those responses to reach
      their clients and their rows to settle; a response still open then (a client that does not
      read) is recorded as ended by the shutdown, so every request a client saw answered is in the
      ledger. It closes the upstream connections and the store — which writes every queued ledger
      row — and exits with status 0.</li>
    </ol>
    <p>A second signal ends every request at once, waits up to ${duration(
      SETTLE_MS.afterSecondSignal,
    )}, records what is still open, writes the ledger and exits 0. Give the orchestrator's grace period (Kubernetes'
    <code>terminationGracePeriodSeconds</code>) more than <code>GATEHOUSE_DRAIN_SECONDS</code> plus
    ${duration(SETTLE_MS.afterDrain)}, so the drain is not cut short by a SIGKILL.</p>
  `;
}
