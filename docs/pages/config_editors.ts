/**
 * Continue and Zed: editors with a config file, each with a set-up script.
 * @module
 */
import { code, html } from "../html.ts";
import { KEY_PLACEHOLDER } from "../site.ts";
import { chatModelList } from "./editors.ts";
import type { DocsPage } from "./page.ts";

/** `/clients/continue`. */
export const continuePage: DocsPage = {
  path: "/clients/continue",
  title: "Continue",
  render: (site) => {
    const flagship = site.catalog.setupDefaults.flagship;
    return html`
      <p>Continue reads <code>~/.continue/config.yaml</code> (or <code>$CONTINUE_GLOBAL_DIR</code>). The
      gateway is an OpenAI-compatible provider: <code>provider: openai</code> with
      <code>apiBase: ${site.api}/v1</code> — with <code>/v1</code>, because Continue appends
      <code>/chat/completions</code> to it.</p>
      <h2>Set-up script</h2>
      ${code(site.oneLiner("continue"))}
      <p>It adds one entry per catalog chat model inside a marked block of the <code>models:</code> list
      (<code># &gt;&gt;&gt; gatehouse models</code> … <code># &lt;&lt;&lt; gatehouse models</code>); a
      re-run replaces that block only, and your other models, keys and comments stay byte for byte. The
      file holds the key, so it is written with mode 0600. If you still use <code>config.json</code>, the
      script stops: Continue ignores config.json once config.yaml exists.</p>
      <h2>By hand</h2>
      ${code(
        `name: Local Config
version: 1.0.0
schema: v1
models:
  - name: ${flagship} (gatehouse)
    provider: openai
    model: ${flagship}
    apiBase: ${site.api}/v1
    apiKey: "${KEY_PLACEHOLDER}"
    roles:
      - chat
      - edit
      - apply`,
        "yaml",
      )}
      <h2>Chat models</h2>
      ${chatModelList(site)}
    `;
  },
};

/** `/clients/zed`. */
export const zedPage: DocsPage = {
  path: "/clients/zed",
  title: "Zed",
  render: (site) => {
    const flagship = site.models().find((m) => m.id === site.catalog.setupDefaults.flagship);
    const example = {
      language_models: {
        openai_compatible: {
          gatehouse: {
            api_url: `${site.api}/v1`,
            available_models: [{
              name: flagship?.id ?? site.catalog.setupDefaults.flagship,
              display_name: flagship?.display_name ?? site.catalog.setupDefaults.flagship,
              max_tokens: flagship?.context_window ?? 128000,
              capabilities: {
                tools: true,
                images: flagship?.input_modalities.includes("image") ?? false,
                parallel_tool_calls: false,
                prompt_cache_key: false,
              },
            }],
          },
        },
      },
    };
    return html`
      <p>Zed's agent reaches the gateway as an OpenAI-compatible provider in
      <code>~/.config/zed/settings.json</code> (<code>%APPDATA%\\Zed\\settings.json</code> on Windows).
      <code>api_url</code> is <code>${site.api}/v1</code>, with <code>/v1</code>: Zed appends
      <code>/chat/completions</code>.</p>
      <h2>Set-up script</h2>
      ${code(site.oneLiner("zed"))}
      <p>It sets <code>api_url</code> and <code>available_models</code> (every catalog chat model) of
      <code>language_models.openai_compatible.gatehouse</code> and nothing else; comments and other
      settings stay byte for byte. Zed never reads keys from settings.json: it takes the key from the
      environment variable named after the provider, <code>GATEHOUSE_API_KEY</code>, or from its
      keychain (<em>Settings → AI → LLM Providers → gatehouse</em>).</p>
      ${code(
        `export GATEHOUSE_API_KEY='${KEY_PLACEHOLDER}'   # in the environment Zed starts from`,
        "sh",
      )}
      <h2>By hand</h2>
      ${code(JSON.stringify(example, null, 2), "json")}
      <h2>Chat models</h2>
      ${chatModelList(site)}
    `;
  },
};
