/**
 * Claude Code: native and remapped slots, model discovery, the one-credential rule.
 * @module
 */
import { code, html } from "../html.ts";
import { KEY_PLACEHOLDER, type Site } from "../site.ts";
import type { DocsPage } from "./page.ts";

/** `/clients/claude-code`. */
export const claudeCodePage: DocsPage = {
  path: "/clients/claude-code",
  title: "Claude Code",
  render: (site: Site) => {
    const d = site.catalog.setupDefaults;
    const claudeIds = site.models().filter((m) =>
      /^(claude|anthropic)/.test(m.id) && m.supported_endpoint_types.includes("anthropic")
    ).map((m) => m.id);
    const patterns = site.catalog.patterns().map((p) => p.pattern);
    const settings = (extra: Record<string, string>, model?: string) =>
      JSON.stringify(
        {
          env: {
            ANTHROPIC_BASE_URL: site.api,
            ANTHROPIC_AUTH_TOKEN: KEY_PLACEHOLDER,
            ...extra,
          },
          ...(model ? { model } : {}),
        },
        null,
        2,
      );
    return html`
      <p>Claude Code speaks Anthropic Messages and appends <code>/v1/messages</code> to its base URL, so
      <code>ANTHROPIC_BASE_URL</code> is the root, <code>${site
        .api}</code>. It can run in two modes.</p>

      <h2>Set-up script</h2>
      ${code(site.oneLiner("claude-code", "--mode remapped"))}
      <p>It edits the <code>env</code> block of <code>~/.claude/settings.json</code> (the file's values
      win over the shell's) and nothing else in it. Options: <code>--mode native|remapped</code> (default
      native), <code>--discovery</code> / <code>--no-discovery</code>, <code>--key-from-env</code> (write
      no key: you export <code>ANTHROPIC_AUTH_TOKEN</code> yourself), <code>--dry-run</code>,
      <code>--rollback</code>. It checks the key against <code>GET /v1/models</code> before writing and
      sends one request through <code>POST /v1/messages</code> after.</p>

      <h2>Native mode</h2>
      <p>Claude Code sends its own Claude model ids, which the gateway serves: the catalog lists
      ${claudeIds.length
        ? html`${claudeIds.map((id, n) => html`${n ? ", " : ""}<code>${id}</code>`)}`
        : "no Claude model"}${patterns.length
        ? html`, and ids matching ${
          patterns.map((p, n) => html`${n ? ", " : ""}<code>${p}</code>`)
        } are forwarded unchanged to their provider`
        : ""}. The model slots stay unset.</p>
      ${code(settings({}), "json")}

      <h2>Remapped mode</h2>
      <p>Claude Code's three model slots (and its subagents) point at catalog models, so it runs on
      models of any provider; the gateway translates Messages to and from their protocol. The ids come
      from the catalog's set-up defaults:</p>
      <table>
        <thead>
          <tr>
            <th>Claude Code slot</th>
            <th>Variable</th>
            <th>Catalog model</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>opus</td>
            <td><code>ANTHROPIC_DEFAULT_OPUS_MODEL</code></td>
            <td><code>${d.flagship}</code> (flagship tier)</td>
          </tr>
          <tr>
            <td>sonnet (the default)</td>
            <td><code>ANTHROPIC_DEFAULT_SONNET_MODEL</code></td>
            <td><code>${d.previous}</code> (previous family)</td>
          </tr>
          <tr>
            <td>haiku</td>
            <td><code>ANTHROPIC_DEFAULT_HAIKU_MODEL</code></td>
            <td><code>${d.previous_mini}</code> (previous-family mini)</td>
          </tr>
          <tr>
            <td>subagents</td>
            <td><code>CLAUDE_CODE_SUBAGENT_MODEL</code></td>
            <td><code>${d.previous_mini}</code></td>
          </tr>
        </tbody>
      </table>
      ${code(
        settings({
          ANTHROPIC_DEFAULT_OPUS_MODEL: d.flagship,
          ANTHROPIC_DEFAULT_SONNET_MODEL: d.previous,
          ANTHROPIC_DEFAULT_HAIKU_MODEL: d.previous_mini,
          CLAUDE_CODE_SUBAGENT_MODEL: d.previous_mini,
        }, "sonnet"),
        "json",
      )}
      <p><code>"model": "sonnet"</code> picks the sonnet slot at start; <code>/model opus</code> switches
      slot. Any catalog id also works as <code>ANTHROPIC_MODEL</code> or <code>/model &lt;id&gt;</code>.</p>

      <h2>One credential only</h2>
      <p>Set <code>ANTHROPIC_AUTH_TOKEN</code> (sent as <code>Authorization: Bearer</code>) and
      <strong>not</strong> <code>ANTHROPIC_API_KEY</code> as well: with both, Claude Code warns of an
      authentication conflict. The set-up script removes <code>ANTHROPIC_API_KEY</code> from the
      <code>env</code> block and warns when it is exported in your shell; unset it there
      (<code>unset ANTHROPIC_API_KEY</code>, and remove it from your shell profile). The gateway accepts
      either header, but one is enough.</p>

      <h2>Model discovery</h2>
      <p>With <code>CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY=1</code> (the script's
      <code>--discovery</code>), Claude Code calls <code>GET /v1/models?limit=1000</code> at start; the
      gateway answers in the Anthropic list shape because Claude Code sends
      <code>anthropic-version</code>. Claude Code keeps only ids starting with <code>claude</code> or
      <code>anthropic</code>, so <code>/model</code> lists ${claudeIds.length
        ? html`${claudeIds.map((id, n) => html`${n ? ", " : ""}<code>${id}</code>`)}`
        : "no model here"}; remapped slots work whether or not they are listed.</p>

      <h2>Without a settings file</h2>
      ${code(
        `ANTHROPIC_BASE_URL=${site.api} ANTHROPIC_AUTH_TOKEN="$GATEHOUSE_API_KEY" claude

# remapped onto catalog models:
ANTHROPIC_BASE_URL=${site.api} ANTHROPIC_AUTH_TOKEN="$GATEHOUSE_API_KEY" \\
ANTHROPIC_DEFAULT_OPUS_MODEL=${d.flagship} ANTHROPIC_DEFAULT_SONNET_MODEL=${d.previous} \\
ANTHROPIC_DEFAULT_HAIKU_MODEL=${d.previous_mini} CLAUDE_CODE_SUBAGENT_MODEL=${d.previous_mini} \\
ANTHROPIC_MODEL=sonnet claude`,
        "sh",
      )}
      <p>Values in <code>~/.claude/settings.json</code> override these; remove them there first. When
      something fails, see <a href="${site.link("/errors")}">errors and troubleshooting</a>.</p>
    `;
  },
};
