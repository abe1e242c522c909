/**
 * The reliability page's sections on routing: a model's deployments (the example's catalog
 * excerpt and the deployments the catalog builds from it) and its fallbacks, with what the
 * client and the ledger are told about the model that answered.
 * @module
 */
import { SERVED_MODEL_HEADER } from "../../core/ids.ts";
import { usd } from "../../governance/refusals.ts";
import { code, html, type Part } from "../html.ts";
import type { Site } from "../site.ts";
import { n } from "./keys_counting.ts";
import {
  exampleCatalog,
  exampleCost,
  exampleJson,
  FALLBACK_MODEL,
  OVERFLOW_MODEL,
  SPREAD_MODEL,
} from "./reliability_example.ts";

/** The deployments the example's catalog builds, with each one's share when all are idle. */
function deploymentTable(): Part {
  const all = exampleCatalog().deployments();
  const total = (model: string | null) =>
    all.filter((d) => d.model === model).reduce((sum, d) => sum + d.deployment.weight, 0);
  return html`
    <table>
      <thead>
        <tr>
          <th>Deployment id</th>
          <th>Model</th>
          <th>Provider</th>
          <th>Upstream id</th>
          <th>Weight</th>
          <th>Share when idle</th>
        </tr>
      </thead>
      <tbody>${all.map(({ model, deployment: d }) =>
        html`
          <tr data-deployment="${d.id}">
            <td><code>${d.id}</code></td>
            <td><code>${model}</code></td>
            <td><code>${d.provider.name}</code></td>
            <td><code>${d.upstreamId}</code></td>
            <td class="num">${d.weight}</td>
            <td class="num">${d.weight}/${total(model)}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

/** "Deployments". */
export function deployments(): Part {
  return html`
    <h2 id="deployments">Deployments</h2>
    <p>A catalog model names either one <code>provider</code> or a list of
    <code>deployments</code>: several providers (or several accounts of one provider, each with
    its own rate limits) serving the same model. A deployment has a <code>provider</code> (a key of
    <code>providers</code>), an optional <code>upstream_id</code> (the id sent there; the model's
    <code>upstream_id</code> by default, else its id) and a <code>weight</code> (a positive
    integer, 1 by default). An excerpt of a catalog file (<code>GATEHOUSE_CONFIG</code>):</p>
    ${code(exampleJson(), "json")}
    <p>The gateway builds these deployments from it; their ids are what health, the admin API and
    the ledger name:</p>
    ${deploymentTable()}
    <p><strong>Routing.</strong> Each attempt goes to one of the model's usable deployments: the
    one with the fewest requests in flight per unit of weight, ties broken at random in proportion
    to weight. So idle deployments share requests by weight, and under load the weights share the
    concurrent requests. Cooling deployments are skipped (<a href="#health">health</a>); only
    deployments whose provider has its credential (<code>api_key_env</code>) set take traffic, and
    a model none of whose providers has one is not listed. A pattern entry
    (<code>claude-*</code>) has one deployment, <code>&lt;pattern&gt;@&lt;provider&gt;</code>.</p>
  `;
}

/** "Fallbacks". */
export function fallbacks(site: Site): Part {
  const sonnet = exampleCatalog().resolve(FALLBACK_MODEL)!;
  const haiku = exampleCatalog().resolve(OVERFLOW_MODEL)!;
  return html`
    <h2 id="fallbacks">Fallbacks</h2>
    <p><code>fallbacks</code> lists other catalog models (ids or aliases), tried in order once the
    model's own deployments have had their attempts: in the example, a request for
    <code>${SPREAD_MODEL}</code> goes to <code>${FALLBACK_MODEL}</code> when both OpenAI
    deployments keep failing. Each fallback gets the same number of attempts on its own
    deployments; a fallback's own <code>fallbacks</code> are not followed. The catalog is refused
    at start when a fallback does not exist, names the model itself or twice, or does not answer on
    every endpoint type of the model; a fallback whose provider has no credential is passed
    over.</p>
    <p><code>fallback_on_context_overflow: true</code> sends a request too large for the model to
    the first fallback whose <code>context_window</code> is larger, as soon as the provider says
    it does not fit (a <code>400</code>, <code>413</code> or <code>422</code> naming the context
    length): in the example, <code>${OVERFLOW_MODEL}</code> (${n(haiku.contextWindow ?? 0)}
    tokens) overflows to <code>${FALLBACK_MODEL}</code> (${n(
      sonnet.contextWindow ?? 0,
    )}). Without it (the default), the overflow error goes back to the client, whose own handling
    (Codex compacts its history) applies.</p>
    <p><strong>Which model answered.</strong> Every answer carries
    <code>${SERVED_MODEL_HEADER}</code>: the catalog id that answered, the fallback's after a
    fallback (an error answered after the last attempt has no such header; its message names the
    provider). The ledger keeps both the requested <code>model</code> and the
    <code>served_model</code>, with every attempt (<a href="#request-log">request log</a>).
    Fallbacks are the operator's routing, not the client's choice: the key's policy is checked
    against the model it asked for, and the request is billed — ledger and budgets — at the served
    model's prices. The example request below, answered by <code>${FALLBACK_MODEL}</code>, costs
    ${usd(exampleCost())} at its prices. Clients that want a specific model can compare
    <code>${SERVED_MODEL_HEADER}</code> with it; <a href="${site.link(
      "/catalog",
    )}">the catalog page</a> lists each model's prices.</p>
  `;
}
