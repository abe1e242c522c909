/**
 * The quick start: the addresses, a key, one check, the set-up one-liners, first requests.
 * @module
 */
import { code, html } from "../html.ts";
import { KEY_PLACEHOLDER, type Site } from "../site.ts";
import type { DocsPage } from "./page.ts";

/** `/`. */
export const quickStartPage: DocsPage = {
  path: "/",
  title: "Quick start",
  render: (site: Site) => {
    const flagship = site.catalog.setupDefaults.flagship;
    return html`
      <p>gatehouse is an LLM gateway: point coding agents, editors and SDKs at <strong>one address with
      one key</strong>, and every model in the <a href="${site.link(
        "/catalog",
      )}">catalog</a> answers on
      every protocol — OpenAI Chat Completions, OpenAI Responses and Anthropic Messages.</p>

      <h2>1. The address</h2>
      <p>The API root is <code>${site
        .api}</code>. Clients and SDKs add <code>/v1/...</code> themselves,
      so configure the root <em>without</em> <code>/v1</code>; the exception is the OpenAI SDK (and the
      editors built on it), whose base URL is <code>${site
        .api}/v1</code>. Every route is also served
      without <code>/v1</code> (<code>${site.api}/responses</code> is <code>${site
        .api}/v1/responses</code>).</p>
      ${site.alt === null
        ? ""
        : site.alt.active
        ? html`<p>The alternative root <code>${site.alt.url}</code> serves the same API.</p>`
        : html`<p class="note warn">The alternative root <code>${site.alt.url}</code> is reserved and
not active yet: do not configure it until this page says it is active. The set-up scripts never
write it unless you pass it with <code>--base-url</code>.</p>`}

      <h2>2. A key</h2>
      <p>Keys look like <code>gth_&lt;id&gt;_&lt;secret&gt;</code> and come from the gateway's operator
      (<code>deno task keys create --name NAME</code> on the gateway host prints one; a key may carry
      limits and a budget: see <a href="${site.link(
        "/keys",
      )}">keys, limits and budgets</a>). Keep it
      in an environment variable, not in shell history:</p>
      ${code(`export GATEHOUSE_API_KEY='${KEY_PLACEHOLDER}'`, "sh")}
      <p>Check both at once — a list of models means the address and the key are right; a 401 means the
      key is wrong; a 404 or no answer means the address is wrong:</p>
      ${code(`curl -s ${site.api}/v1/models -H "Authorization: Bearer $GATEHOUSE_API_KEY"`, "sh")}

      <h2>3. Set up a client</h2>
      <p>The set-up scripts check the address and the key live, back up every file they change, write
      atomically, and finish with one real request through the client's own route.</p>
      <table>
        <thead>
          <tr>
            <th>Client</th>
            <th>Command</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td><a href="${site.link("/clients/claude-code")}">Claude Code</a></td>
            <td>${code(site.oneLiner("claude-code", "--mode remapped"))}</td>
          </tr>
          <tr>
            <td><a href="${site.link("/clients/codex")}">Codex</a></td>
            <td>${code(site.oneLiner("codex"))}</td>
          </tr>
          <tr>
            <td><a href="${site.link("/clients/continue")}">Continue</a></td>
            <td>${code(site.oneLiner("continue"))}</td>
          </tr>
          <tr>
            <td><a href="${site.link("/clients/zed")}">Zed</a></td>
            <td>${code(site.oneLiner("zed"))}</td>
          </tr>
        </tbody>
      </table>
      <p>Each takes the key from <code>--key</code>, from <code>GATEHOUSE_API_KEY</code>, or from a
      hidden prompt. <code>--dry-run</code> shows what would change, <code>--rollback</code> restores the
      files as they were, <code>--help</code> lists the rest. The scripts need Node.js 18+ or Deno. On
      Windows, download <a href="${site.link(
        "/setup/gatehouse-setup.mjs",
      )}">gatehouse-setup.mjs</a> and run
      it with <code>node</code>:</p>
      ${code(
        `Invoke-WebRequest ${site.docs}/setup/gatehouse-setup.mjs -OutFile gatehouse-setup.mjs\nnode gatehouse-setup.mjs codex`,
        "powershell",
      )}
      <p>Cursor, Cline, Roo Code and the SDKs keep their settings elsewhere; their pages show what to
      enter.</p>

      <h2>4. First requests</h2>
      ${code(
        `curl -s ${site.api}/v1/chat/completions \\
  -H "Authorization: Bearer $GATEHOUSE_API_KEY" -H "content-type: application/json" \\
  -d '{"model": "${flagship}", "messages": [{"role": "user", "content": "Say hello."}]}'

curl -s ${site.api}/v1/responses \\
  -H "Authorization: Bearer $GATEHOUSE_API_KEY" -H "content-type: application/json" \\
  -d '{"model": "${flagship}", "input": "Say hello."}'

curl -s ${site.api}/v1/messages \\
  -H "x-api-key: $GATEHOUSE_API_KEY" -H "anthropic-version: 2023-06-01" \\
  -H "content-type: application/json" \\
  -d '{"model": "${flagship}", "max_tokens": 256, "messages": [{"role": "user", "content": "Say hello."}]}'`,
        "sh",
      )}
      <p>Any catalog id works on any of the three routes; <code>GET /v1/usage</code> reports what your
      key has spent. The <a href="${site.link(
        "/reference",
      )}">API reference</a> documents every route.</p>
    `;
  },
};
