/**
 * The Observability page's logs section: `GATEHOUSE_LOG_FORMAT`, the request line (its fields
 * and an example in each format, made by the code that writes it), the lifecycle events, and
 * what never goes into a line.
 * @module
 */
import { jsonLine, LOG_FORMATS, MAX_USER_AGENT } from "../../observe/logs/format.ts";
import { requestLine, requestText } from "../../observe/logs/request_log.ts";
import { FLUSH_MS } from "../../observe/logs/sink.ts";
import type { SettledRequest } from "../../observe/observer.ts";
import { code, html, type Part } from "../html.ts";

const TIME = "2026-11-26T13:00:00.123Z";

/** An example request: streamed, answered after a retry. */
const EXAMPLE: SettledRequest = {
  record: {
    requestId: "req_4f7c2m9q0vdx8kz1p3r5t6wb",
    keyId: "k7x2m9q4ab",
    model: "gpt-5",
    servedModel: "gpt-5",
    upstream: "openai",
    upstreamId: null,
    route: "/v1/chat/completions",
    status: 200,
    outcome: "ok",
    attempts: 2,
    inputTokens: 1200,
    outputTokens: 310,
    cachedTokens: 1024,
    cacheWriteTokens: 0,
    reasoningTokens: 128,
    images: 0,
    cost: 0.0046,
    latencyMs: 4120,
    firstByteMs: 910,
    stream: true,
    time: 0,
  },
  key: {
    id: "k7x2m9q4ab",
    name: "alice laptop",
    hint: "gth_k7x2m9q4…",
    createdAt: 0,
    revokedAt: null,
    lastUsedAt: null,
    admin: false,
    team: "research",
    policy: {},
    teamPolicy: {},
    rotatedAt: null,
    previousValidUntil: null,
  },
  userAgent: "claude-cli/2.0.1 (external, cli)",
  refusal: null,
  limit: null,
  durationMs: 4120.4,
  firstByteMs: 910.2,
  overheadMs: 0.41,
  upstreamMs: 660.1,
  finishReasons: ["stop"],
  mode: "passthrough",
};

const EVENTS: [string, string][] = [
  ["start", "listening: address, workers, store kind, where limits are counted, models listed"],
  ["demo, no_credentials", "started in demo mode; started with no provider credential set"],
  ["start_failed", "the start stopped, with why (stderr)"],
  ["drain", "a signal began the drain: the signal, requests in flight, the grace period"],
  ["drain_ended", "the grace period ran out: how many requests were ended then"],
  ["drain_cut", "a second signal ended every request at once"],
  [
    "responses_open, responses_ended",
    "responses still open after the drain (a client not reading), then recorded as ended",
  ],
  ["listener_stop_failed, close_failed", "a listener, or the store and clients, failed to close"],
  ["exit", "the process exits, with its code"],
  [
    "deployment_health",
    "a deployment's breaker moved: from, to (cooling, probing, healthy), why (failures, " +
    "retry_after, probe_failed, cooldown_over, probe_succeeded), until when, the failure's code",
  ],
  ["worker_ended, worker_start_failed", "a worker thread stopped or could not start"],
];

/** The section. */
export function logsSection(): Part {
  const line = requestLine(EXAMPLE);
  const fields = Object.keys(line);
  return html`
    <h2 id="logs">Logs</h2>
    <p><code>GATEHOUSE_LOG_FORMAT</code> is ${LOG_FORMATS.map((f, i) =>
      html`${i > 0 ? " or " : ""}<code>${f}</code>`
    )} (default <code>text</code>, for a person reading a terminal). <code>json</code> writes one
    JSON object per line — <code>time</code>, <code>level</code>, <code>event</code> (request and
    lifecycle lines), <code>message</code>, then the fields — for a log pipeline (Loki, Vector,
    CloudWatch, …). Log lines go to stderr, through a buffer written every ${FLUSH_MS} ms (a line
    costs a request a couple of microseconds; the buffer is written out on shutdown);
    the start-up and shutdown lines go to stdout, in the same format.</p>
    <h3 id="request-line">One line per request</h3>
    <p>Every model request writes one <code>info</code> line when it settles (the same moment as
    its ledger row): ${fields.map((f, i) => html`${i > 0 ? ", " : ""}<code>${f}</code>`)}.
    The user agent is the client's, control characters removed, cut at ${MAX_USER_AGENT}
    characters. <code>GATEHOUSE_QUIET=1</code> drops info lines, request lines included.</p>
    ${code(`${TIME} INFO ${requestText(line)}`, "text")}
    ${code(jsonLine(TIME, "info", "request", line, "request"), "json")}
    <h3 id="lifecycle-lines">Lifecycle lines</h3>
    <table>
      <thead>
        <tr>
          <th>event</th>
          <th>when</th>
        </tr>
      </thead>
      <tbody>${EVENTS.map(([event, when]) =>
        html`
          <tr>
            <td>${event.split(", ").map((e, i) => html`${i > 0 ? ", " : ""}<code>${e}</code>`)}</td>
            <td>${when}</td>
          </tr>
        `
      )}</tbody>
    </table>
    <p>Warnings (a failed upstream attempt, a ledger write failing) and errors are lines of their
    own, with the request id where there is one. With <code>--workers N</code> the log lines of
    every worker thread carry <code>worker</code> (the first one's lifecycle lines are the
    process's, without it).</p>
    <p><strong>Never in a line:</strong> a key or provider credential, a prompt, an output. A
    failed attempt whose error the provider worded is logged by its code only (a provider may
    quote the prompt back); anything shaped like a key (<code>gth_…</code>, <code>sk-…</code>, a
    bearer value) is replaced by <code>[redacted]</code> as a last line of defence. The test suite
    collects every line its gateways write and fails on any key material in them. The one
    exception is deliberate: the very first start prints the first admin key once, on stdout,
    outside the log.</p>
  `;
}
