/**
 * `/dashboard`: the operator's page on the docs host. The server renders only the empty frame
 * (sign-in form, chart canvases, tables, forms); `dashboard.js` fills it from the admin API,
 * which the docs host forwards to the gateway in the same process (same origin: no CORS, and
 * the admin key never leaves the page's own session storage and `Authorization` header).
 * @module
 */
import { GATEHOUSE_VERSION } from "../../openapi/document.ts";
import { type Html, html } from "../html.ts";
import type { Site } from "../site.ts";

/** The page's content security policy: its own scripts only, and requests to its own origin
 * (the forwarded admin API). */
export const DASHBOARD_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; " +
  "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
  "form-action 'none'; frame-ancestors 'none'";

const POLICY_FIELDS: Array<{ name: string; label: string; hint: string; type?: string }> = [
  { name: "models", label: "Models", hint: "comma-separated ids or globs; empty: all" },
  { name: "rpm", label: "Requests / min", hint: "", type: "number" },
  { name: "tpm", label: "Tokens / min", hint: "", type: "number" },
  { name: "max_parallel", label: "In parallel", hint: "", type: "number" },
  { name: "budget_usd", label: "Budget (USD)", hint: "", type: "number" },
  { name: "expires_at", label: "Expires", hint: "30d, 2027-01-01, …" },
];

function policyInputs(form: string): Html[] {
  const fields = POLICY_FIELDS.map((f) =>
    html`<label>${f.label}<input name="${f.name}" id="${form}-${f.name}" ${
      f.type === "number" ? html`type="number" min="0" step="any"` : html`type="text"`
    } placeholder="${f.hint}" autocomplete="off"></label>`
  );
  const period = html`<label>Budget period<select name="budget_period" id="${form}-budget_period">
    <option value="">—</option><option value="day">day</option><option value="week">week</option>
    <option value="month">month</option><option value="total">total</option></select></label>`;
  return [...fields, period];
}

function chart(id: string, title: string): Html {
  return html`
    <figure class="chart">
      <figcaption>${title}</figcaption>
      <div class="canvas-box">
        <canvas id="${id}" role="img" aria-label="${title}"></canvas>
      </div>
    </figure>
  `;
}

/** The whole page. */
export function dashboardPage(site: Site): string {
  const asset = (name: string) => site.link(`/assets/${name}`);
  return html`
    <!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Dashboard · gatehouse</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="${asset("docs.css")}">
        <link rel="stylesheet" href="${asset("dashboard.css")}">
        <script src="${asset("vendor/chart.umd.min.js")}" defer></script>
        <script src="${asset("dashboard.js")}" defer></script>
      </head>
      <body class="dashboard" data-base="${site.basePath}">
        <header class="top">
          <a class="brand" href="${site.link("/")}">gatehouse <span>dashboard</span></a>
          <dl class="addresses">
            <div>
              <dt>API root</dt>
              <dd><code>${site.api}</code></dd>
            </div>
          </dl>
          <div class="live" id="live" hidden>
            <span>In flight <strong id="inflight">–</strong></span>
            <span>Streams open <strong id="streams">–</strong></span>
            <button type="button" id="signout">Sign out</button>
          </div>
        </header>
        <main class="board">
          <section id="signin" class="card">
            <h1>Sign in</h1>
            <p>With an admin key (<code>deno task keys create --name ops --admin</code>). It stays in
          this tab's session storage and goes to the admin API in the <code>Authorization</code>
          header only.</p>
            <form id="signin-form">
              <label>Admin key <input type="password" id="admin-key" autocomplete="off"
              spellcheck="false" required></label>
              <button type="submit">Sign in</button>
            </form>
            <p class="error" id="signin-error" role="alert"></p>
          </section>
          <div id="board" hidden>
            <div class="toolbar">
              <div class="ranges" role="group" aria-label="Range">
                <button type="button" data-range="24h" aria-pressed="true">24 h</button>
                <button type="button" data-range="7d" aria-pressed="false">7 d</button>
                <button type="button" data-range="30d" aria-pressed="false">30 d</button>
              </div>
              <label>Split by <select id="group-by">
              <option value="model">model</option><option value="key">key</option>
              <option value="team">team</option></select></label>
              <span class="muted" id="updated"></span>
            </div>
            <p class="error" id="board-error" role="alert"></p>
            <div class="totals" id="totals"></div>
            <div class="charts">
            ${chart("chart-spend", "Spend (USD)")}
            ${chart("chart-tokens", "Tokens (input + output)")}
            ${chart("chart-requests", "Requests and error rate")}
            ${chart("chart-latency", "Latency and time to first byte (ms)")}
          </div>
            <section>
              <h2>Keys</h2>
              <div class="secret" id="secret" hidden>
                <p><strong id="secret-title">New key</strong>: copy it now, it is not shown again.</p>
                <code id="secret-value"></code>
                <button type="button" id="secret-done">Done</button>
              </div>
              <div class="table-wrap">
                <table id="keys"></table>
              </div>
              <form id="key-form" class="editor">
              <h3 id="key-form-title">New key</h3>
              <label>Name<input name="name" id="key-name" type="text" autocomplete="off"></label>
              <label>Team<input name="team" id="key-team" type="text" autocomplete="off"></label>
              <label class="check"><input name="admin" id="key-admin" type="checkbox"> admin</label>
              ${policyInputs("key")}
              <div class="actions"><button type="submit" id="key-submit">Create key</button>
              <button type="button" id="key-cancel" hidden>Cancel</button></div>
            </form>
            </section>
            <section>
              <h2>Teams</h2>
              <div class="table-wrap">
                <table id="teams"></table>
              </div>
              <form id="team-form" class="editor">
              <h3 id="team-form-title">New team</h3>
              <label>Id<input name="id" id="team-id" type="text" autocomplete="off"></label>
              ${policyInputs("team")}
              <div class="actions"><button type="submit" id="team-submit">Create team</button>
              <button type="button" id="team-cancel" hidden>Cancel</button></div>
            </form>
            </section>
            <section>
              <h2>Deployments</h2>
              <div class="table-wrap">
                <table id="deployments"></table>
              </div>
            </section>
          </div>
        </main>
        <footer>gatehouse ${GATEHOUSE_VERSION} · <a href="${site.link("/")}">docs</a> ·
        <a href="${site.link("/reference")}">API reference</a></footer>
      </body>
    </html>
  `.text;
}
