/**
 * The reliability page's failure table: for each way the last attempt can fail, what the client
 * gets. Each row's error is built the way the gateway builds it — the wire's error decoder, the
 * attempt stage's `finalError` over the default number of attempts, the stream errors, the
 * cool-down and shutdown refusals — and rendered through the envelopes' own encoders; the
 * outcome is the one `gateway/outcome.ts` gives it.
 * @module
 */
import { DEFAULT_BASE_URLS } from "../../catalog/resolve_provider.ts";
import { GatewayError, streamIncomplete } from "../../core/errors.ts";
import { AttemptFailed, finalError, noHealthyDeployment } from "../../gateway/attempt_failure.ts";
import { streamIdleTimeout } from "../../gateway/idle_cutoff.ts";
import { shuttingDown } from "../../gateway/in_flight.ts";
import { endingOfError, type Stage, streamOutcome } from "../../gateway/outcome.ts";
import { MAX_HONOURED_RETRY_AFTER_MS, retryAfterMs } from "../../gateway/retry_policy.ts";
import { CONNECT_TIMEOUT, UPSTREAM_TIMEOUT } from "../../gateway/upstream_fetch.ts";
import { anthropicErrorBody } from "../../protocols/anthropic_messages/encode_error.ts";
import { decodeAnthropicError } from "../../protocols/anthropic_messages/decode_error.ts";
import { decodeError, truncatedStream } from "../../protocols/openai_chat/decode_error.ts";
import { openaiErrorBody } from "../../protocols/openai_chat/encode_error.ts";
import { responsesErrorOf } from "../../protocols/openai_responses/error_codes.ts";
import type { Outcome } from "../../store/store.ts";
import { html, type Part } from "../html.ts";
import { DEFAULTS, SPREAD_MODEL } from "./reliability_example.ts";

/** One row: the last failure, the error the client gets, and the request's ledger outcome. */
export interface FailureRow {
  id: string;
  cause: Part;
  error: GatewayError;
  /** The answer had begun: status 200, then the stream's terminal error. */
  stream?: true;
  outcome: Outcome;
}

/** Attempts a model with one deployment and no fallback gets by default. */
export const ATTEMPTS = 1 + DEFAULTS.retries;

const OPENAI = "openai";
const ANTHROPIC = "anthropic";
const OPENAI_ROOT = DEFAULT_BASE_URLS.openai!;

/** A `retry-after` the gateway does not wait out, in seconds. */
export const LONG_RETRY_AFTER_S = (2 * MAX_HONOURED_RETRY_AFTER_MS) / 1000;
/** One it does. */
export const SHORT_RETRY_AFTER_S = 2;

/** An OpenAI-wire error status, as `attempt.ts` reads it. The body names no code of its own, so
 * the table shows the codes the gateway gives each kind. */
function openaiStatus(status: number, message: string, headers: Record<string, string> = {}) {
  const h = new Headers(headers);
  const body = { error: { message } };
  return new AttemptFailed(
    "retryable_status",
    status,
    decodeError(OPENAI, status, body, h),
    retryAfterMs(h),
  );
}

/** What `upstreamFetch` throws when no connection or no headers came. It builds these errors
 * inline, so they are repeated here; the page's test compares them with the real ones. */
function fetchFailure(result: "unreachable" | "connect_timeout" | "header_timeout") {
  switch (result) {
    case "unreachable":
      return new AttemptFailed(
        result,
        0,
        new GatewayError(
          "upstream",
          502,
          `Could not reach provider "${OPENAI}" at ${OPENAI_ROOT}: Connection refused (os error ` +
            "111). Check the provider's base URL and that it is up.",
          { code: "upstream_unreachable" },
        ),
      );
    case "connect_timeout":
      return new AttemptFailed(
        result,
        0,
        new GatewayError(
          "timeout",
          504,
          `Could not connect to provider "${OPENAI}" at ${OPENAI_ROOT} within ` +
            `${DEFAULTS.connectTimeoutMs} ms (GATEHOUSE_CONNECT_TIMEOUT_MS). Check that it is up.`,
          { code: CONNECT_TIMEOUT },
        ),
      );
    case "header_timeout":
      return new AttemptFailed(
        result,
        0,
        new GatewayError(
          "timeout",
          504,
          `Provider "${OPENAI}" did not answer within ${DEFAULTS.upstreamTimeoutMs} ms ` +
            "(GATEHOUSE_UPSTREAM_TIMEOUT_MS).",
          { code: UPSTREAM_TIMEOUT },
        ),
      );
  }
}

const ending = (error: GatewayError, stage: Stage) => endingOfError(error, stage, false).outcome;

/** The row of a request whose last attempt failed with `failure` after `attempts` attempts. */
function last(id: string, cause: Part, failure: AttemptFailed, attempts = ATTEMPTS): FailureRow {
  const error = finalError(failure, attempts);
  return { id, cause, error, outcome: ending(error, "attempt") };
}

/** A stream the client was already reading, ended by `error`. */
function midStream(id: string, cause: Part, error: GatewayError): FailureRow {
  return { id, cause, error, stream: true, outcome: streamOutcome(error) };
}

const overloaded = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };

/** Every row, in the page's order. */
export function failureRows(): FailureRow[] {
  const noHealthy = noHealthyDeployment(SPREAD_MODEL, DEFAULTS.cooldownMs);
  const shutdown = shuttingDown("SIGTERM");
  return [
    last(
      "429_long",
      html`<code>429</code> with a <code>retry-after</code> over the longest waited
      (here ${LONG_RETRY_AFTER_S} s), no other deployment or fallback usable: answered at once`,
      openaiStatus(429, "Rate limit reached for requests", {
        "retry-after": String(LONG_RETRY_AFTER_S),
      }),
      1,
    ),
    last(
      "429",
      html`<code>429</code> with a short <code>retry-after</code> (here ${SHORT_RETRY_AFTER_S} s)
      on every attempt, each waited out`,
      openaiStatus(429, "Rate limit reached for requests", {
        "retry-after": String(SHORT_RETRY_AFTER_S),
      }),
    ),
    last(
      "529",
      html`<code>529</code> (Anthropic overloaded)`,
      new AttemptFailed(
        "retryable_status",
        529,
        decodeAnthropicError(ANTHROPIC, 529, overloaded, new Headers()),
      ),
    ),
    last("503", html`<code>503</code>`, openaiStatus(503, "Service unavailable")),
    last("500", html`<code>500</code>`, openaiStatus(500, "Internal server error")),
    last("502", html`<code>502</code>`, openaiStatus(502, "Bad gateway")),
    last("504", html`<code>504</code> or <code>408</code>`, openaiStatus(504, "Gateway timeout")),
    last("unreachable", html`Connection refused (or reset, TLS, DNS)`, fetchFailure("unreachable")),
    last("connect_timeout", html`Connect timeout`, fetchFailure("connect_timeout")),
    last("header_timeout", html`No response headers in time`, fetchFailure("header_timeout")),
    last(
      "cut_first",
      html`Stream or body cut before its first byte reached the client`,
      new AttemptFailed("cut", 200, streamIncomplete(ANTHROPIC, "its first event")),
    ),
    last(
      "silent_first",
      html`Stream silent before its first chunk`,
      new AttemptFailed("cut", 200, streamIdleTimeout(ANTHROPIC, DEFAULTS.streamIdleTimeoutMs)),
    ),
    last(
      "error_event",
      html`First chunk is the wire's error event (<code>overloaded_error</code> after a
      <code>200</code>)`,
      new AttemptFailed(
        "error_event",
        200,
        decodeAnthropicError(ANTHROPIC, 529, overloaded, new Headers()),
      ),
    ),
    midStream(
      "idle_mid",
      html`Stream idle timeout mid-stream`,
      streamIdleTimeout(OPENAI, DEFAULTS.streamIdleTimeoutMs),
    ),
    midStream("cut_mid", html`Stream cut mid-stream`, truncatedStream(OPENAI)),
    {
      id: "no_healthy",
      cause: html`No healthy deployment: every deployment of the model and of its fallbacks is
      cooling down (no call is made)`,
      error: noHealthy,
      outcome: ending(noHealthy, "admit"),
    },
    {
      id: "shutdown",
      cause: html`Shutdown: the drain ended a request still waiting on its upstream, or one arrived
      while draining`,
      error: shutdown,
      outcome: ending(shutdown, "attempt"),
    },
    midStream("shutdown_mid", html`Shutdown: the drain ended a stream`, shutdown),
  ];
}

/** The status cell. */
function statusCell(row: FailureRow): Part {
  if (row.stream) return html`<code>200</code>, then the stream's terminal error`;
  return html`<code>${row.error.status}</code>`;
}

/** The OpenAI cell: `type` / `code`, and for a stream where each OpenAI wire carries it. */
function openaiCell(row: FailureRow): Part {
  const { type, code } = openaiErrorBody(row.error).error;
  const pair = html`<code>${type}</code> / <code>${code ?? "null"}</code>`;
  if (!row.stream) return pair;
  return html`chat: ${pair} in a last <code>data: {"error": …}</code> chunk, no
    <code>[DONE]</code>; Responses: <code>response.failed</code> with
    <code>${responsesErrorOf(row.error).code}</code>`;
}

/** The Anthropic cell. */
function anthropicCell(row: FailureRow): Part {
  const type = html`<code>${anthropicErrorBody(row.error).error.type}</code>`;
  return row.stream ? html`<code>event: error</code> with ${type}` : type;
}

/** The headers the error carries (`retry-after`, `x-should-retry`). */
function headersCell(row: FailureRow): Part {
  if (row.stream) return "—";
  const headers = Object.entries(row.error.headers);
  if (headers.length === 0) return "—";
  return headers.map(([name, value]) =>
    html`
      <code>${name}: ${value}</code>
    `
  );
}

/** "What the client gets": the failure table. */
export function failureTable(): Part {
  return html`
    <div class="table-wrap">
      <table class="refusals">
        <thead>
          <tr>
            <th>Last failure</th>
            <th>Status</th>
            <th>OpenAI <code>type</code> / <code>code</code></th>
            <th>Anthropic <code>type</code></th>
            <th>Headers</th>
            <th>Outcome</th>
            <th>Message (example)</th>
          </tr>
        </thead>
        <tbody>${failureRows().map((row) =>
          html`
            <tr data-failure="${row.id}">
              <td>${row.cause}</td>
              <td>${statusCell(row)}</td>
              <td>${openaiCell(row)}</td>
              <td>${anthropicCell(row)}</td>
              <td>${headersCell(row)}</td>
              <td><code>${row.outcome}</code></td>
              <td><small>${row.error.message}</small></td>
            </tr>
          `
        )}</tbody>
      </table>
    </div>
  `;
}
