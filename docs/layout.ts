/**
 * The one layout every docs page shares: header with the public addresses, navigation, main
 * content. No script runs on any page except the API reference's Swagger UI (the dashboard,
 * `dashboard/page.ts`, is a page of its own).
 * @module
 */
import { GATEHOUSE_VERSION } from "../openapi/document.ts";
import { type Html, html } from "./html.ts";
import type { Site } from "./site.ts";

/** A navigation entry. */
export interface NavItem {
  path: string;
  label: string;
}

/** The navigation, in reading order. */
export const NAV: { heading: string | null; items: NavItem[] }[] = [
  {
    heading: null,
    items: [{ path: "/", label: "Quick start" }],
  },
  {
    heading: "Clients",
    items: [
      { path: "/clients/claude-code", label: "Claude Code" },
      { path: "/clients/codex", label: "Codex" },
      { path: "/clients/cursor", label: "Cursor" },
      { path: "/clients/continue", label: "Continue" },
      { path: "/clients/zed", label: "Zed" },
      { path: "/clients/cline", label: "Cline and Roo Code" },
      { path: "/clients/openai-sdk", label: "OpenAI SDK" },
      { path: "/clients/anthropic-sdk", label: "Anthropic SDK" },
    ],
  },
  {
    heading: "Reference",
    items: [
      { path: "/catalog", label: "Model catalog" },
      { path: "/keys", label: "Keys, limits and budgets" },
      { path: "/reliability", label: "Reliability" },
      { path: "/observability", label: "Observability" },
      { path: "/performance", label: "Performance" },
      { path: "/errors", label: "Errors and troubleshooting" },
      { path: "/reference", label: "API reference" },
    ],
  },
];

/** What a page hands the layout. */
export interface PageContent {
  /** The path the page is served at (marks the current nav entry). */
  path: string;
  title: string;
  body: Html;
  /** Extra elements for `<head>` (the reference page's stylesheet). */
  head?: Html;
}

/** Renders a whole page. */
export function layout(site: Site, page: PageContent): string {
  const alt = site.alt === null ? "" : html`
    <div>
      <dt>Alternative root</dt>
      <dd><code>${site.alt.url}</code> ${site.alt.active
        ? html`<span class="badge ok">active</span>`
        : html`<span class="badge warn">reserved, not active yet</span>`}</dd>
    </div>
  `;
  const nav = NAV.map((group) =>
    html`<div class="nav-group">${group.heading ? html`<h2>${group.heading}</h2>` : ""}<ul>${
      group.items.map((item) =>
        html`<li><a href="${site.link(item.path)}"${
          item.path === page.path
            ? html`
              aria-current="page"
            `
            : ""
        }>${item.label}</a></li>`
      )
    }</ul></div>`
  );
  return html`
    <!doctype html>
    <html lang="en">
      <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${page.title} · gatehouse docs</title>
    <link rel="stylesheet" href="${site.link("/assets/docs.css")}">
    ${page.head ?? ""}
      </head>
      <body>
        <header class="top">
          <a class="brand" href="${site.link("/")}">gatehouse <span>docs</span></a>
          <dl class="addresses">
    <div><dt>API root</dt><dd><code>${site.api}</code></dd></div>
    <div><dt>Docs</dt><dd><code>${site.docs}</code></dd></div>
    ${alt}
          </dl>
        </header>
        <div class="frame">
          <nav aria-label="Documentation">${nav}</nav>
          <main id="content">
    <h1>${page.title}</h1>
    ${page.body}
          </main>
        </div>
        <footer>gatehouse ${GATEHOUSE_VERSION} · <a href="${site.link(
          "/dashboard",
        )}">dashboard</a> (admin key) · <a href="${site.link(
          "/openapi.json",
        )}">openapi.json</a> · set-up scripts under <a href="${site.link(
          "/setup/gatehouse-setup.mjs",
        )}">/setup/</a></footer>
      </body>
    </html>
  `.text;
}
