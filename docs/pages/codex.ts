/**
 * Codex: the provider table, auth.json, why the base URL has no /v1, websockets off.
 * @module
 */
import { code, html } from "../html.ts";
import { KEY_PLACEHOLDER, type Site } from "../site.ts";
import type { DocsPage } from "./page.ts";

/** `/clients/codex`. */
export const codexPage: DocsPage = {
  path: "/clients/codex",
  title: "Codex",
  render: (site: Site) => {
    const flagship = site.catalog.setupDefaults.flagship;
    return html`
      <p>Codex speaks OpenAI Responses. It reads a provider table from
      <code>$CODEX_HOME/config.toml</code> (<code>~/.codex</code> by default) and the key from
      <code>$CODEX_HOME/auth.json</code>.</p>

      <h2>Set-up script</h2>
      ${code(site.oneLiner("codex"))}
      <p>It sets <code>model</code> and <code>model_provider</code> and the
      <code>[model_providers.gatehouse]</code> table in <code>config.toml</code> — other keys, tables
      and comments stay as they are — and puts the key into <code>auth.json</code> only (mode 0600).
      <code>--provider-id ID</code> names the table differently; <code>--dry-run</code> and
      <code>--rollback</code> work as for every script. After writing it sends one request through
      <code>POST /v1/responses</code>.</p>

      <h2>config.toml</h2>
      ${code(
        `model = "${flagship}"
model_provider = "gatehouse"

[model_providers.gatehouse]
name = "gatehouse"
base_url = "${site.api}"
wire_api = "responses"
requires_openai_auth = true
supports_websockets = false`,
        "toml",
      )}
      <table>
        <thead>
          <tr>
            <th>Key</th>
            <th>Why</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td><code>base_url</code></td>
            <td>The root, without <code>/v1</code>: Codex appends
      <code>/responses</code> (not <code>/v1/responses</code>) and the gateway serves every route bare
      as well, so Codex posts to <code>${site.api}/responses</code>. <code>${site
        .api}/v1</code> would
      also reach the gateway, but the root is the one address that is right for every client, which is
      why the script writes it and refuses an address ending in <code>/v1</code>.</td>
          </tr>
          <tr>
            <td><code>wire_api = "responses"</code></td>
            <td>The only wire current Codex speaks (the
      <code>chat</code> wire was removed from Codex).</td>
          </tr>
          <tr>
            <td><code>requires_openai_auth = true</code></td>
            <td>Codex sends the key from
      <code>auth.json</code> as <code>Authorization: Bearer</code>.</td>
          </tr>
          <tr>
            <td><code>supports_websockets = false</code></td>
            <td>The gateway serves Responses over plain
      HTTP; a WebSocket upgrade gets 426. With websockets off Codex goes straight to HTTP instead of
      trying and falling back.</td>
          </tr>
          <tr>
            <td><code>model</code></td>
            <td>The catalog's flagship tier. Any id from the
      <a href="${site.link("/catalog")}">catalog</a> works; for ids it has no built-in metadata for,
      Codex prints <q>Model metadata … not found</q> and carries on.</td>
          </tr>
        </tbody>
      </table>

      <h2>auth.json</h2>
      ${code(
        JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: KEY_PLACEHOLDER }, null, 2),
        "json",
      )}
      <p>This is what <code>codex login --with-api-key</code> writes too
      (<code>printenv GATEHOUSE_API_KEY | codex login --with-api-key</code> is an alternative). The key
      never goes into <code>config.toml</code>. If <code>auth.json</code> also holds a ChatGPT sign-in,
      the script keeps it but sets <code>auth_mode</code> to <code>apikey</code>, so the gatehouse key is
      what Codex sends.</p>

      <h2>Run it</h2>
      ${code(`codex\ncodex exec "Summarize this repository"`, "sh")}
      <p>A profile selected with <code>profile = "…"</code> in <code>config.toml</code> overrides
      <code>model</code> and <code>model_provider</code>; the script warns when one is set.</p>
    `;
  },
};
