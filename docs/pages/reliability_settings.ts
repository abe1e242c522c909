/**
 * The reliability page's settings table and its section on what is retried: every variable with
 * the default `readGatewayConfig` gives it, the retryable statuses, the backoff constants and
 * the longest `retry-after` waited out (`gateway/retry_policy.ts`).
 * @module
 */
import type { GatewayConfig } from "../../gateway/config.ts";
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  isRetryableStatus,
  MAX_HONOURED_RETRY_AFTER_MS,
} from "../../gateway/retry_policy.ts";
import { html, type Part } from "../html.ts";
import { n } from "./keys_counting.ts";
import { DEFAULTS } from "./reliability_example.ts";

/** One setting: its variable, the config value it sets (in the variable's own unit), and what it
 * means. */
export interface Setting {
  name: string;
  read(config: GatewayConfig): number;
  meaning: Part;
}

/** A duration for prose: `250 ms`, `30 s`, `5 minutes`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${n(ms)} ms`;
  if (ms >= 60_000 && ms % 60_000 === 0) {
    return `${n(ms / 60_000)} minute${ms === 60_000 ? "" : "s"}`;
  }
  return `${n(ms / 1000)} s`;
}

/** Every reliability setting, in the order the page lists them. */
export const SETTINGS: Setting[] = [
  {
    name: "GATEHOUSE_RETRIES",
    read: (c) => c.retries,
    meaning: html`Extra attempts per model after the first, on a retryable failure (<code>0</code>:
    none). The model's deployments get 1 + this many attempts, then each fallback as many.`,
  },
  {
    name: "GATEHOUSE_CONNECT_TIMEOUT_MS",
    read: (c) => c.connectTimeoutMs,
    meaning: html`How long opening a new upstream connection (TCP connect and TLS handshake) may
    take, per attempt; past it the attempt failed and is retried. Only the gateway's pooled client
    sees the connect phase: with <code>GATEHOUSE_UPSTREAM_CLIENT=fetch</code> (the default when a
    proxy variable is set) the runtime does not expose it, and only the header timeout below
    applies.`,
  },
  {
    name: "GATEHOUSE_UPSTREAM_TIMEOUT_MS",
    read: (c) => c.upstreamTimeoutMs,
    meaning: html`How long to wait for the upstream's response headers, per attempt; past it the
    attempt failed and is retried.`,
  },
  {
    name: "GATEHOUSE_STREAM_IDLE_TIMEOUT_MS",
    read: (c) => c.streamIdleTimeoutMs,
    meaning: html`A stream that sends nothing this long ends: before its first chunk the attempt is
    retried; once the client has data it ends with the client protocol's terminal error, outcome
    <code>timeout</code>, the upstream request cancelled and what was streamed billed.`,
  },
  {
    name: "GATEHOUSE_COOLDOWN_SECONDS",
    read: (c) => c.cooldownMs / 1000,
    meaning: html`How long a deployment rests after <code>GATEHOUSE_COOLDOWN_FAILURES</code>
    retryable failures in a row, before a probe.`,
  },
  {
    name: "GATEHOUSE_COOLDOWN_FAILURES",
    read: (c) => c.cooldownFailures,
    meaning: html`Retryable failures in a row that cool a deployment down. A failure while another
    attempt on the deployment was answered does not count, unless at least half of its calls of
    the last 10-20 s failed.`,
  },
  {
    name: "GATEHOUSE_DRAIN_SECONDS",
    read: (c) => c.drainMs / 1000,
    meaning: html`On SIGTERM or SIGINT, how long requests in flight may run to their end before the
    gateway ends them.`,
  },
];

/** The default cell: the value as the variable is written, in words too when it is long. */
function defaultCell(setting: Setting): Part {
  const value = setting.read(DEFAULTS);
  const words = setting.name.endsWith("_MS") && value >= 1000
    ? html`
      (${duration(value)})
    `
    : "";
  return html`<code>${value}</code>${words}`;
}

/** "Settings": the table. */
export function settings(): Part {
  return html`
    <h2 id="settings">Settings</h2>
    <p>Environment variables of the gateway process, read once at start; a bad value stops the
    start with a message naming the variable.</p>
    <table>
      <thead>
        <tr>
          <th>Variable</th>
          <th>Default</th>
          <th>Meaning</th>
        </tr>
      </thead>
      <tbody>${SETTINGS.map((s) =>
        html`
          <tr data-setting="${s.name}">
            <td><code>${s.name}</code></td>
            <td>${defaultCell(s)}</td>
            <td>${s.meaning}</td>
          </tr>
        `
      )}</tbody>
    </table>
    <p>There is no limit on a stream's total duration: a stream that keeps producing is never cut,
    however long it runs. Only silence ends it.</p>
  `;
}

/** The statuses the attempt stage retries, from the policy itself. */
export function retryableStatuses(): number[] {
  const statuses: number[] = [];
  for (let status = 400; status < 600; status++) {
    if (isRetryableStatus(status)) statuses.push(status);
  }
  return statuses;
}

/** "What is retried": statuses, connection failures, first-chunk failures, the waits. */
export function retried(): Part {
  const statuses = retryableStatuses();
  const max = duration(MAX_HONOURED_RETRY_AFTER_MS);
  return html`
    <h2 id="retries">What is retried</h2>
    <p>An attempt is retried only while nothing has reached the client — before the gateway
    returns its response. These failures are retryable:</p>
    <ul>
      <li>an upstream status among ${statuses.map((s, i) =>
        html`${i === 0 ? "" : i === statuses.length - 1 ? " and " : ", "}<code>${s}</code>`
      )} (Anthropic's <code>529</code> is its <q>overloaded</q>);</li>
      <li>no connection: refused, reset, a TLS or DNS failure, or the connect timeout;</li>
      <li>no response headers within the header timeout;</li>
      <li>a stream that ends, breaks or stays silent before its first chunk, or whose first chunk
      holds the wire's error event with a <q>not now</q> type or code — overloaded, rate limit,
      server error, unavailable, timeout (Anthropic's <code>overloaded_error</code> after a
      <code>200</code>, a Responses <code>response.failed</code>, a chat <code>{"error": …}</code>
      chunk);</li>
      <li>a whole (non-streamed) answer whose body breaks off before its end;</li>
      <li>a <code>401</code> or <code>403</code>: the provider refused that deployment's
      credential, so another deployment or a fallback is tried (never the same one again). A
      model with neither gives the client a <code>502</code> naming the provider at once.</li>
    </ul>
    <p>Not retried: any other <code>4xx</code> (the client's to fix; forwarded in its envelope as
    before), and anything once the response has started — a stream already delivering text that
    breaks ends with the client protocol's terminal error, as the <a href="#failures">failure
    table</a> shows. A client that leaves stops the attempts at once.</p>
    <h3 id="order">Order and waits</h3>
    <p>The next attempt prefers a deployment of the same model not yet tried in this request (no
    wait). When every usable deployment already failed, one of them is retried — a model with a
    single deployment retries that one — after a wait: the provider's own
    <code>retry-after</code> or <code>retry-after-ms</code> when it named one of at most ${max},
    else a backoff with full jitter: a uniform random wait between 0 and
    min(${n(BACKOFF_CAP_MS)}, ${n(BACKOFF_BASE_MS)} × 2<sup>n−1</sup>) ms before retry
    <var>n</var>, so clients that failed together do not come back together. A
    <code>retry-after</code> longer than ${max} is not waited out: that deployment is not called
    again for this request, the next deployment or fallback is tried at once, or, with none
    usable, the failure goes back to the client with its <code>retry-after</code>.</p>
    <p>After 1 + <code>GATEHOUSE_RETRIES</code> attempts on a model (${1 + DEFAULTS.retries} by
    default), the gateway moves to the model's first fallback, then the next, each with the same
    allowance (with <a href="#fallbacks"><code>fallback_on_context_overflow</code></a>, a context
    overflow skips to the first fallback with a larger window). Each
    failed attempt is one <code>warn</code> log line with the request id, the deployment, the
    status and the result.</p>
  `;
}
