/**
 * The API reference: a server-rendered route list (readable without JavaScript) and Swagger UI
 * over the same OpenAPI document, its assets served by the docs host itself.
 * @module
 */
import { SwaggerUI } from "@hono/swagger-ui";
import { keySources } from "../../routes/security.ts";
import { BARE_PATH_FIELD, routeList } from "../../routes/table.ts";
import { html, type Part, trusted } from "../html.ts";
import type { Site } from "../site.ts";
import type { DocsPage } from "./page.ts";

const METHODS = ["get", "post", "put", "patch", "delete", "head"] as const;

interface Operation {
  summary?: string;
  [BARE_PATH_FIELD]?: string;
}

/** Which credential a route takes, from its row's security requirement (what the gateway
 * enforces). */
function credential(method: string, path: string): string {
  const spec = routeList.find((s) => s.route.method === method && s.route.path === path);
  const sources = keySources(spec?.route.security ?? []);
  const forms = [...(sources.bearer ? ["Bearer"] : []), ...sources.headers];
  if (forms.length === 0) return "none";
  return `${forms.join(" or ")}${sources.adminOnly ? " (admin key)" : ""}`;
}

/** The Swagger UI start-up script, served as /assets/reference.js (no inline script). Try-it-out
 * is off: the API lives on another origin and the reference must not send keys from here. */
export const REFERENCE_JS = `"use strict";
window.addEventListener("load", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    dom_id: "#swagger-ui",
    url: root.getAttribute("data-spec"),
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    supportedSubmitMethods: [],
    validatorUrl: null
  });
});
`;

/** `/reference`. */
export const referencePage: DocsPage = {
  path: "/reference",
  title: "API reference",
  head: (site) => {
    // @hono/swagger-ui computes the asset addresses under the docs host's own /assets.
    const markup = SwaggerUI({
      url: site.link("/openapi.json"),
      baseUrl: site.link("/assets"),
      manuallySwaggerUIHtml: (asset) =>
        html`${asset.css.map((href) => html`<link rel="stylesheet" href="${href}">`)}${
          asset.js.map((src) => html`<script src="${src}" defer></script>`)
        }<script src="${site.link("/assets/reference.js")}" defer></script>`.text,
    });
    return trusted(markup);
  },
  render: (site: Site) => {
    const doc = site.document() as { paths?: Record<string, Record<string, Operation>> };
    const rows: Part[] = [];
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of METHODS) {
        const op = item[method];
        if (op === undefined) continue;
        const bare = op[BARE_PATH_FIELD];
        rows.push(html`
          <tr class="route">
            <td class="method">${method.toUpperCase()}</td>
            <td><code>${path}</code>${bare
              ? html`<br><small>also <code>${bare}</code></small>`
              : ""}</td>
            <td>${op.summary ?? ""}</td>
            <td>${credential(method, path)}</td>
          </tr>
        `);
      }
    }
    return html`
      <p>Every route of the gateway at <code>${site.api}</code>, from its OpenAPI 3.1 document
      (<a href="${site.link("/openapi.json")}">openapi.json</a>, also at
      <code>${site.api}/openapi.json</code>). Each <code>/v1</code> route is also served without
      <code>/v1</code>. Routes marked <q>admin key</q> (<code>/admin/v1</code>: keys, teams,
      everyone's usage) take an admin key; <a href="${site.link(
        "/keys",
      )}">keys, limits and budgets</a> explains them. Requests are not sent from this page: use the
      examples on the client pages, or generate a client from the document.</p>
      <table class="routes">
        <thead>
          <tr>
            <th>Method</th>
            <th>Path</th>
            <th>What it does</th>
            <th>Key</th>
          </tr>
        </thead>
        <tbody>${rows}</tbody>
      </table>
      <h2>Interactive reference</h2>
      <noscript><p>The interactive reference below needs JavaScript; the table above lists the same
      routes.</p></noscript>
      <div id="swagger-ui" data-spec="${site.link("/openapi.json")}"></div>
    `;
  },
};
