/**
 * The live catalog: what `GET /v1/models` lists, with prices, limits, the set-up defaults and
 * the special-purpose previews marked.
 * @module
 */
import type { ModelPricing, OpenAIModelObject } from "../../catalog/listing_schema.ts";
import { html, type Part } from "../html.ts";
import type { Site } from "../site.ts";
import type { DocsPage } from "./page.ts";

const ROLES = {
  flagship: "set-up default: flagship",
  previous: "set-up default: previous",
  previous_mini: "set-up default: mini",
} as const;

/** `/catalog`. */
export const catalogPage: DocsPage = {
  path: "/catalog",
  title: "Model catalog",
  render: (site: Site) => {
    const models = site.models();
    const patterns = site.catalog.patterns();
    const defaults = site.catalog.setupDefaults;
    return html`
      <p>The models this gateway serves right now — the same list as <code>GET ${site
        .api}/v1/models</code>.
      Endpoint types name the routes a model answers on: <code>openai</code> is Chat Completions and
      Responses, <code>anthropic</code> is Messages, <code>image-generation</code> is Images; the gateway
      translates between protocols. Aliases resolve to their model. Prices are US dollars per million
      tokens (per image for images).${site.catalog.demo
        ? html`
          <span class="badge warn">demo mode: every model is answered by the built-in mock provider</span>
        `
        : ""}</p>
      <p>Set-up defaults (what the set-up scripts write): flagship <code>${defaults
        .flagship}</code>,
      previous family <code>${defaults.previous}</code>, previous-family mini
      <code>${defaults.previous_mini}</code>.</p>
      <div class="table-wrap">
        <table class="catalog">
          <thead>
            <tr>
              <th>Model id</th>
              <th>Aliases</th>
              <th>Endpoint types</th>
              <th>Context</th>
              <th>Max output</th>
              <th>Modalities (in → out)</th>
              <th>Input</th>
              <th>Cached input</th>
              <th>Cache write</th>
              <th>Output</th>
              <th>Per image</th>
            </tr>
          </thead>
          <tbody>
      ${models.map((m) => row(m, site))}
          </tbody>
        </table>
      </div>
      ${models.length === 0
        ? html`<p class="note warn">No model is listed: the gateway has no provider credential set.</p>`
        : ""}
      ${patterns.length === 0 ? "" : html`
        <h2>Id patterns</h2>
        <p>Ids matching a pattern are not listed but are accepted and forwarded unchanged to the
        provider (Claude Code's native ids, for example).</p>
        <table class="catalog">
          <thead>
            <tr>
              <th>Pattern</th>
              <th>Endpoint types</th>
              <th>Description</th>
            </tr>
          </thead>
          <tbody>${patterns.map((p) =>
            html`
              <tr>
                <td><code>${p.pattern}</code></td>
                <td>${p.endpoint_types.join(", ")}</td>
                <td>${p.description ?? ""}</td>
              </tr>
            `
          )}</tbody>
        </table>
      `}
    `;
  },
};

function row(m: OpenAIModelObject, site: Site): Part {
  const defaults = site.catalog.setupDefaults;
  const roles = (Object.keys(ROLES) as (keyof typeof ROLES)[]).filter((role) =>
    defaults[role] === m.id || m.aliases.includes(defaults[role])
  );
  return html`<tr data-model="${m.id}">
<td><code>${m.id}</code><br><small>${m.display_name}</small>${
    roles.map((role) => html`<span class="badge ok">${ROLES[role]}</span>`)
  }${
    m.special_purpose
      ? html`
        <span class="badge warn"
          title="Audio or realtime preview: not for general chat">special-purpose preview</span>
      `
      : ""
  }</td>
<td>${m.aliases.map((a, n) => html`${n ? ", " : ""}<code>${a}</code>`)}</td>
<td>${m.supported_endpoint_types.join(", ")}</td>
<td class="num">${tokens(m.context_window)}</td>
<td class="num">${tokens(m.max_output_tokens)}</td>
<td>${m.input_modalities.join(", ")} → ${m.output_modalities.join(", ")}</td>
${price(m.pricing, "input")}${price(m.pricing, "cached_input")}${price(m.pricing, "cache_write")}${
    price(m.pricing, "output")
  }${price(m.pricing, "per_image")}
</tr>`;
}

function tokens(value: number | null): string {
  return value === null ? "—" : value.toLocaleString("en-US");
}

function price(pricing: ModelPricing, key: keyof ModelPricing): Part {
  const value = pricing[key];
  const shown = value === undefined
    ? "—"
    : `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;
  return html`<td class="num">${shown}</td>`;
}
