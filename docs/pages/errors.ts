/**
 * Errors and troubleshooting: how to tell a wrong address from a wrong key, the doubled /v1,
 * POST-only routes, unknown models, how a broken stream ends, request ids, and what each client
 * shows for each.
 * @module
 */
import { routeList } from "../../routes/table.ts";
import { code, html, type Part } from "../html.ts";
import type { Site } from "../site.ts";
import { limitErrors } from "./errors_limits.ts";
import type { DocsPage } from "./page.ts";

/** The POST-only client routes (the `/v1` ones) as the route table has them: "a, b and c". */
function postOnlyRoutes(): Part[] {
  const paths = routeList.filter((spec) => spec.route.method === "post" && spec.bare !== null).map((
    spec,
  ) => html`<code>${spec.route.path}</code>`);
  return paths.map((path, i) => [i === 0 ? "" : i === paths.length - 1 ? " and " : ", ", path]);
}

/** `/errors`. */
export const errorsPage: DocsPage = {
  path: "/errors",
  title: "Errors and troubleshooting",
  render: (site: Site) =>
    html`
      <p>Every error is JSON in the envelope the client parses — OpenAI routes answer
      <code>{"error": {"message", "type", "param", "code"}}</code>, <code>/v1/messages</code> answers
      <code>{"type": "error", "error": {"type", "message"}}</code> — and the message says what failed and
      what to do. The gateway checks in a fixed order: <strong>route</strong> (404, 405), then
      <strong>key</strong> (401), then <strong>body</strong> (413, 400), then <strong>model</strong>
      (404, 400, 503), then the key's <strong>limits</strong> (403, 429). So a route error means the
      address or path is wrong whatever the key, and a 401 means the address is right.</p>

      <h2>Wrong address or wrong key?</h2>
      ${code(
        `curl -si ${site.api}/v1/models -H "Authorization: Bearer $GATEHOUSE_API_KEY" | head -1`,
        "sh",
      )}
      <table>
        <thead>
          <tr>
            <th>Answer</th>
            <th>Meaning</th>
            <th>Fix</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td><code>200</code></td>
            <td>Address and key are right.</td>
            <td>—</td>
          </tr>
          <tr>
            <td><code>401</code> <code>invalid_api_key</code></td>
            <td>The address is right; the key is not.
      The message says which problem: no key, an empty key (an unset variable), whitespace or a line
      break inside, an unsubstituted placeholder such as <code>&lt;key&gt;</code> or
      <code>$GATEHOUSE_API_KEY</code> in single quotes, an unknown key, a revoked key, or an old
      secret after its rotation's grace period; a key past its expiry gets
      <code>expired_api_key</code>. See <a href="#limits">keys and limits</a>.</td>
            <td>Fix the variable or ask for a new key.</td>
          </tr>
          <tr>
            <td><code>404</code> <code>unknown_route</code></td>
            <td>The address reaches a gatehouse but the
      path is wrong.</td>
            <td>Use the root <code>${site.api}</code> as base URL.</td>
          </tr>
          <tr>
            <td>no answer, TLS error, HTML page</td>
            <td>The address is not the gateway.</td>
            <td>Check the
      host, port and scheme.</td>
          </tr>
          <tr>
            <td><code>404</code> <code>docs_host</code></td>
            <td>You called this docs host; it serves no
      API.</td>
            <td>Use <code>${site.api}</code>.</td>
          </tr>
        </tbody>
      </table>

      <h2>The doubled <code>/v1</code></h2>
      <p>Claude Code and the Anthropic SDKs add <code>/v1/...</code> to their base URL, so a base URL
      ending in <code>/v1</code> makes them call <code>/v1/v1/messages</code>; the gateway answers 404
      <q>the path has /v1 twice</q>. Set their base URL to the root, <code>${site.api}</code>. Codex
      appends <code>/responses</code> and also takes the root. Only the OpenAI SDK and the editors built
      on it (Cursor, Continue, Zed, Cline's OpenAI Compatible provider) take
      <code>${site
        .api}/v1</code> — and doubling it there (<code>/v1/v1</code>) gets the same 404. The
      set-up scripts take the root, refuse one that ends in <code>/v1</code>, and say why.</p>

      <h2>POST-only routes</h2>
      <p>${postOnlyRoutes()} take POST only. Opening one in a browser (a GET) gets <code>405</code> with <code>Allow: POST</code> — the route
      exists, the method is wrong. A WebSocket upgrade on <code>/v1/responses</code> gets
      <code>426</code>: set <code>supports_websockets = false</code> in Codex's provider table.</p>

      <h2>Model not found</h2>
      <p><code>404</code> <code>model_not_found</code>: the id is neither a catalog id, an alias nor a
      match of an id pattern. <code>GET /v1/models</code> and the <a href="${site.link(
        "/catalog",
      )}">catalog page</a> list the valid ids. Related: <code>400</code> when the model does not serve
      that route (an image model on Chat Completions), and <code>503</code> when its provider has no
      credential configured on the gateway (ask its operator).</p>

      <h2>Other statuses</h2>
      <table>
        <thead>
          <tr>
            <th>Status</th>
            <th>Meaning</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td><code>400</code></td>
            <td>Malformed JSON or a schema violation; the message names the field
      path.</td>
          </tr>
          <tr>
            <td><code>413</code></td>
            <td>The body is larger than the gateway's limit.</td>
          </tr>
          <tr>
            <td><code>429</code></td>
            <td>The key's or its team's limit (<code>rate_limit_exceeded</code>) or budget
      (<code>insufficient_quota</code>): see <a href="#limits">below</a>. Or the provider's rate
      limit, forwarded with its <code>Retry-After</code>.</td>
          </tr>
          <tr>
            <td><code>502</code></td>
            <td>The provider failed or rejected the gateway's own credential.</td>
          </tr>
        </tbody>
      </table>

      ${limitErrors(site)}

      <h2>When a stream breaks</h2>
      <p>When the upstream stream breaks — the connection is cut, the upstream stays silent past
      <code>GATEHOUSE_STREAM_IDLE_TIMEOUT_MS</code> (5 minutes by default), or it sends an error event
      — the client always receives its own protocol's terminal error, then the stream closes. It
      never gets a clean end after a cut, passthrough included, so a client never mistakes a partial
      answer for a whole one. A translated stream also ends this way at an event that is not valid
      JSON; a same-protocol (passthrough) stream is forwarded as the provider wrote it, whole event
      by whole event, without parsing each one.</p>
      <table>
        <thead>
          <tr>
            <th>Protocol</th>
            <th>Last event the client receives</th>
            <th>Never sent after a cut</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>Anthropic Messages</td>
            <td><code>event: error</code> with
      <code>{"type":"error","error":{"type":"api_error"|"overloaded_error",…}}</code></td>
            <td><code>message_stop</code></td>
          </tr>
          <tr>
            <td>OpenAI Responses</td>
            <td><code>response.failed</code>, whose <code>response.error</code> says what failed</td>
            <td><code>response.completed</code></td>
          </tr>
          <tr>
            <td>OpenAI Chat Completions</td>
            <td>a final <code>data: {"error":{…}}</code> chunk, with no <code>[DONE]</code> after
      it</td>
            <td><code>[DONE]</code></td>
          </tr>
        </tbody>
      </table>
      <p>The tokens streamed before the break are billed, and the request's ledger row records how it
      ended:</p>
      <table>
        <thead>
          <tr>
            <th>Outcome</th>
            <th>When</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td><code>ok</code></td>
            <td>The answer completed.</td>
          </tr>
          <tr>
            <td><code>upstream_error</code></td>
            <td>The upstream answered an error status, or ended its stream with an error
      event.</td>
          </tr>
          <tr>
            <td><code>upstream_cut</code></td>
            <td>The upstream's stream or body ended before its terminal event.</td>
          </tr>
          <tr>
            <td><code>timeout</code></td>
            <td>No response headers within <code>GATEHOUSE_UPSTREAM_TIMEOUT_MS</code>, or the stream
      went silent past its idle timeout.</td>
          </tr>
          <tr>
            <td><code>client_disconnect</code></td>
            <td>The client left before the end; the upstream request is closed at once.</td>
          </tr>
          <tr>
            <td><code>budget_cut</code></td>
            <td>The key's or team's budget was reached while the answer streamed; the stream ended
      with the protocol's terminal error.</td>
          </tr>
          <tr>
            <td><code>rejected</code></td>
            <td>Refused before any upstream call: unknown model, bad field, limits.</td>
          </tr>
          <tr>
            <td><code>internal_error</code></td>
            <td>A failure in gatehouse's own code.</td>
          </tr>
        </tbody>
      </table>

      <h2>Request ids</h2>
      <p>Every response carries <code>x-request-id</code>, which names the request's ledger row. It is
      the client's own <code>x-request-id</code> when that is sane (8 to 128 characters of
      <code>[A-Za-z0-9._:-]</code>), else one gatehouse makes (<code>req_…</code>). Quote it
      when you report a problem to the gateway's operator.</p>

      <h2>What each client shows</h2>
      <table>
        <thead>
          <tr>
            <th>Client</th>
            <th>Wrong key (401)</th>
            <th>Wrong path, doubled <code>/v1</code> (404)</th>
            <th>Unknown model (404)</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>Claude Code</td>
            <td><code>Failed to authenticate. API Error: 401 &lt;message&gt;</code>,
      after a minute or two of retries.</td>
            <td><q>There's an issue with the selected model (…). It may not
      exist or you may not have access to it.</q> — Claude Code reads every 404 as a model problem, so
      check the base URL too.</td>
            <td>The same model message.</td>
          </tr>
          <tr>
            <td>Codex</td>
            <td><code>ERROR: unexpected status 401 Unauthorized: &lt;message&gt;, url:
      …/responses</code></td>
            <td><code>ERROR: unexpected status 404 Not Found: No route POST …: the path has /v1 twice…,
      url: …</code></td>
            <td><code>ERROR:
      Model "…" is not in the catalog: GET /v1/models lists the valid ids.</code></td>
          </tr>
          <tr>
            <td>OpenAI SDK</td>
            <td><code>AuthenticationError: 401 &lt;message&gt;</code></td>
            <td><code>NotFoundError:
      404 No route POST /v1/v1/chat/completions: the path has /v1 twice…</code></td>
            <td><code>NotFoundError:
      404 Model "…" is not in the catalog…</code></td>
          </tr>
          <tr>
            <td>Anthropic SDK</td>
            <td><code>AuthenticationError: 401 {"type":"error","error":{…}}</code></td>
            <td><code>NotFoundError:
      404 {…"the path has /v1 twice…"}</code></td>
            <td><code>NotFoundError: 404 {…}</code></td>
          </tr>
          <tr>
            <td>Continue, Zed, Cursor, Cline</td>
            <td colspan="3">The status and the gateway's message in
      the chat panel or a notification.</td>
          </tr>
        </tbody>
      </table>
      <p>The set-up scripts tell the two apart before writing anything: <q>the key is wrong</q> for a
      401, <q>the address is wrong</q> for a route error or a connection failure.</p>
    `,
};
