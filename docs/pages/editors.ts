/**
 * Cursor, Cline and Roo Code: editors that keep their settings in their own app state, so no
 * set-up script; the page says exactly what to enter.
 * @module
 */
import { html, type Part } from "../html.ts";
import type { Site } from "../site.ts";
import type { DocsPage } from "./page.ts";

/** The catalog's chat models (OpenAI routes, text out, not special-purpose), as a list. */
export function chatModelList(site: Site): Part {
  const chat = site.models().filter((m) =>
    m.supported_endpoint_types.includes("openai") && m.output_modalities.includes("text") &&
    !m.special_purpose
  );
  return html`
    <table>
      <thead>
        <tr>
          <th>Model id</th>
          <th>Context window</th>
          <th>Max output</th>
          <th>Images in</th>
        </tr>
      </thead>
      <tbody>${chat.map((m) =>
        html`
          <tr>
            <td><code>${m.id}</code>${m.id === site.catalog.setupDefaults.flagship
              ? html`
                <span class="badge info">flagship</span>
              `
              : ""}</td>
            <td class="num">${m.context_window?.toLocaleString("en-US") ?? "—"}</td>
            <td class="num">${m.max_output_tokens?.toLocaleString("en-US") ?? "—"}</td>
            <td>${m.input_modalities.includes("image") ? "yes" : "no"}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

/** `/clients/cursor`. */
export const cursorPage: DocsPage = {
  path: "/clients/cursor",
  title: "Cursor",
  render: (site) =>
    html`
      <p>Cursor reaches custom models through its OpenAI settings. It has no configuration file a
      script could edit, so enter the values by hand.</p>
      <ol>
        <li>Open <em>Cursor Settings → Models</em>.</li>
        <li>Under <em>API Keys</em>, enter your gatehouse key as the <em>OpenAI API Key</em>.</li>
        <li>Turn on <em>Override OpenAI Base URL</em> and enter <code>${site.api}/v1</code> — with
      <code>/v1</code>: Cursor appends <code>/chat/completions</code> to it.</li>
        <li>Add the model ids you want with <em>Add model</em>, exactly as the catalog spells them, and
      turn them on.</li>
      </ol>
      <p class="note warn">Cursor sends requests for custom base URLs from its own servers, not from
      your machine, so <code>${site.api}</code> must be reachable from the internet. A gateway on
      localhost or a private network does not answer Cursor; use Continue or Zed there.</p>
      <h2>Chat models</h2>
      ${chatModelList(site)}
      <p>While the base URL override is on, Cursor sends its built-in OpenAI model names to the gateway
      as well; those are not in the catalog and get <q>model not found</q> — turn them off.</p>
    `,
};

/** `/clients/cline`. */
export const clinePage: DocsPage = {
  path: "/clients/cline",
  title: "Cline and Roo Code",
  render: (site) =>
    html`
      <p>Cline and Roo Code (its fork) keep their provider settings in the editor's extension storage,
      so there is no set-up script: open the extension's settings and pick one of two providers.</p>
      <h2>OpenAI Compatible (every catalog model)</h2>
      <table>
        <tbody>
          <tr>
            <th>API Provider</th>
            <td>OpenAI Compatible</td>
          </tr>
          <tr>
            <th>Base URL</th>
            <td><code>${site.api}/v1</code> (with <code>/v1</code>: the extension appends
      <code>/chat/completions</code>)</td>
          </tr>
          <tr>
            <th>API Key</th>
            <td>your gatehouse key</td>
          </tr>
          <tr>
            <th>Model ID</th>
            <td>a catalog id, e.g. <code>${site.catalog.setupDefaults.flagship}</code></td>
          </tr>
          <tr>
            <th>Model configuration</th>
            <td>context window and max output from the table below; turn on
      image support for models that take images</td>
          </tr>
        </tbody>
      </table>
      <h2>Anthropic (Messages, every catalog model)</h2>
      <table>
        <tbody>
          <tr>
            <th>API Provider</th>
            <td>Anthropic</td>
          </tr>
          <tr>
            <th>API Key</th>
            <td>your gatehouse key</td>
          </tr>
          <tr>
            <th>Use custom base URL</th>
            <td><code>${site.api}</code> (the root: the Anthropic client appends
      <code>/v1/messages</code>)</td>
          </tr>
          <tr>
            <th>Model</th>
            <td>the extension offers Claude ids only; the gateway serves the catalog's Claude
      models on this route</td>
          </tr>
        </tbody>
      </table>
      <h2>Chat models</h2>
      ${chatModelList(site)}
    `,
};
