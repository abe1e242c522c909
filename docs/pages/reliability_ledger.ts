/**
 * The reliability page's section on the request log: `GET /admin/v1/requests`, its filters,
 * an example rendered by the handler's own wire form, and every per-attempt result
 * (`ATTEMPT_RESULTS`) with its meaning.
 * @module
 */
import { type AttemptResult, OUTCOMES, REQUESTS_LIMIT } from "../../store/store.ts";
import { code, html, type Part } from "../html.ts";
import { exampleRequestJson, FALLBACK_MODEL, SPREAD_MODEL } from "./reliability_example.ts";

/** What each attempt result means. */
export const RESULTS: Record<AttemptResult, Part> = {
  ok: html`Its answer went to the client, whatever its status (a <code>4xx</code> the client must
  fix included).`,
  retryable_status: html`The upstream answered a retryable status (the <code>status</code>
  field).`,
  credential_refused: html`The provider refused the deployment's credential (<code>401</code>,
  <code>403</code>): another deployment or a fallback was tried, never this one again in the
  request. (A model with no other deployment and no fallback gives the client a
  <code>502</code> naming the provider at once.)`,
  unreachable: html`No connection: refused, reset, a TLS or DNS failure.`,
  connect_timeout: html`The connection was not open within
  <code>GATEHOUSE_CONNECT_TIMEOUT_MS</code>.`,
  header_timeout: html`No response headers within <code>GATEHOUSE_UPSTREAM_TIMEOUT_MS</code>.`,
  cut: html`The answer broke off, ended or went silent before its first byte reached the
  client.`,
  error_event: html`The stream's first events held the wire's error event (Anthropic's
  <code>overloaded_error</code> after a <code>200</code>).`,
  context_overflow: html`The request did not fit the model's context window; a fallback with a
  larger one was tried.`,
  aborted: html`The client left, or the gateway shut down, while it ran.`,
};

/** "The request log": `GET /admin/v1/requests`. */
export function requestLog(): Part {
  return html`
    <h2 id="request-log">The request log: <code>GET /admin/v1/requests</code></h2>
    <p>Every request's ledger row, newest first, with each upstream call it made (admin key).
    Filters: <code>start</code> and <code>end</code> (as for usage reports), <code>key_id</code>,
    <code>team</code>, <code>model</code> (asked for or served), <code>outcome</code>
    (${OUTCOMES.map((o, i) => html`${i === 0 ? "" : ", "}<code>${o}</code>`)}),
    <code>request_id</code> (the <code>x-request-id</code> a client was sent) and
    <code>limit</code> (${REQUESTS_LIMIT.default} by default, at most ${REQUESTS_LIMIT.max}). Here,
    a streamed request for <code>${SPREAD_MODEL}</code> whose two deployments answered
    <code>503</code> — the first one twice, after a backoff — answered by the fallback
    <code>${FALLBACK_MODEL}</code>:</p>
    ${code(exampleRequestJson(), "json")}
    <p><code>attempts</code> counts the upstream calls; <code>provider</code> and
    <code>served_model</code> are the last attempt's; <code>cost</code> is at the served model's
    prices. Each attempt has its deployment, provider, model, the upstream's
    <code>status</code> (<code>0</code> when none came), how long it took until its headers or
    its failure (<code>ms</code>), and its <code>result</code>:</p>
    <table>
      <thead>
        <tr>
          <th><code>result</code></th>
          <th>Meaning</th>
        </tr>
      </thead>
      <tbody>${Object.entries(RESULTS).map(([result, meaning]) =>
        html`
          <tr data-result="${result}">
            <td><code>${result}</code></td>
            <td>${meaning}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}
