/**
 * What a refused (or cut) client sees, built by calling the gateway's own refusal functions
 * (`governance/refusals.ts`, `routes/auth.ts`) and envelope encoders, so the keys page and the
 * errors page show the statuses, types, codes, `retry-after` and messages the code sends.
 * @module
 */
import { GatewayError } from "../../core/errors.ts";
import { periodEnd } from "../../governance/policy.ts";
import {
  budgetExceeded,
  budgetReached,
  modelNotAllowed,
  parallelExceeded,
  rpmExceeded,
  tpmExceeded,
} from "../../governance/refusals.ts";
import { anthropicErrorType } from "../../protocols/anthropic_messages/encode_error.ts";
import { openaiErrorBody } from "../../protocols/openai_chat/encode_error.ts";
import { responsesErrorOf } from "../../protocols/openai_responses/error_codes.ts";
import { refusalMessage } from "../../routes/auth.ts";
import { html, type Part } from "../html.ts";

/** The moment every example is computed at: Thursday 2026-01-15 12:00 UTC. */
export const EXAMPLE_NOW = Date.UTC(2026, 0, 15, 12);

/** One kind of refusal: its row id (`data-refusal`), when it happens, the error the gateway
 * builds for it, and what `retry-after` carries. */
export interface Refusal {
  id: string;
  cause: Part;
  error: GatewayError;
  retry: string;
  /** Answered mid-stream (status 200, then the protocol's terminal error) instead of as a
   * response status. */
  stream?: true;
}

const KEY = { kind: "key", id: "" } as const;
const TEAM = { kind: "team", id: "research" } as const;
const HOUR = 3_600_000;

function authError(code: string, reason: "revoked" | "expired" | "rotated"): GatewayError {
  const at = EXAMPLE_NOW - 2 * HOUR;
  return new GatewayError("authentication", 401, refusalMessage({ reason, at }), { code });
}

/** Every refusal a key's policy, state or role can cause, in the order of the page's table. */
export const REFUSALS: Refusal[] = [
  {
    id: "model_not_allowed",
    cause: html`The model is not in the key's or its team's <code>models</code>.`,
    error: modelNotAllowed(KEY, "claude-sonnet-5", "claude-sonnet-5", ["gpt-5*"]),
    retry: "none: waiting will not help",
  },
  {
    id: "rpm",
    cause: html`<code>rpm</code> requests were admitted in the last 60 s.`,
    error: rpmExceeded(KEY, 60, 12_300, {}),
    retry: "seconds until the window admits one more",
  },
  {
    id: "tpm",
    cause: html`The <code>tpm</code> window has no room for this request's input estimate.`,
    error: tpmExceeded(TEAM, 200_000, 196_500, 7_000, 21_400, {}),
    retry: "seconds until enough tokens leave the window",
  },
  {
    id: "tpm_never",
    cause: html`The input estimate alone is above <code>tpm</code>.`,
    error: tpmExceeded(KEY, 20_000, 0, 25_000, Infinity, {}),
    retry: "none: shorten the request",
  },
  {
    id: "max_parallel",
    cause: html`<code>max_parallel</code> requests are in flight (streams included).`,
    error: parallelExceeded(KEY, 4, {}),
    retry: "1",
  },
  {
    id: "budget",
    cause: html`The budget's settled spend leaves no room for this request's reservation.`,
    error: budgetExceeded(
      KEY,
      {
        budgetUsd: 20,
        period: "day",
        settledUsd: 19.95,
        heldUsd: 0,
        holds: 0,
        resetsAt: periodEnd("day", EXAMPLE_NOW),
      },
      0.107,
      EXAMPLE_NOW,
      {},
    ),
    retry: "seconds to the end of the period (none for total)",
  },
  {
    id: "budget_held",
    cause: html`It would fit but for what requests in flight hold.`,
    error: budgetExceeded(
      TEAM,
      {
        budgetUsd: 500,
        period: "month",
        settledUsd: 499.2,
        heldUsd: 0.6,
        holds: 3,
        resetsAt: periodEnd("month", EXAMPLE_NOW),
      },
      0.31,
      EXAMPLE_NOW,
      {},
    ),
    retry: "1",
  },
  {
    id: "budget_cut",
    cause: html`A stream reached the budget while it ran (outcome <code>budget_cut</code>).`,
    error: budgetReached(
      KEY,
      {
        budgetUsd: 20,
        period: "week",
        settledUsd: 18.5,
        heldUsd: 0.4,
        holds: 1,
        resetsAt: periodEnd("week", EXAMPLE_NOW),
      },
      20.0003,
      EXAMPLE_NOW,
    ),
    retry: "none (it ends a stream)",
    stream: true,
  },
  {
    id: "expired",
    cause: html`The key's (or its team's) <code>expires_at</code> has passed.`,
    error: authError("expired_api_key", "expired"),
    retry: "none",
  },
  {
    id: "revoked",
    cause: html`The key was revoked.`,
    error: authError("invalid_api_key", "revoked"),
    retry: "none",
  },
  {
    id: "rotated",
    cause: html`An old secret, after its rotation's grace period.`,
    error: authError("invalid_api_key", "rotated"),
    retry: "none",
  },
  {
    id: "admin_key_required",
    cause: html`A normal key called an <code>/admin/v1</code> route (OpenAI envelope only).`,
    error: new GatewayError(
      "permission",
      403,
      "/admin/v1/keys is an admin route and this key is not an admin key: call it with an " +
        "admin key (deno task keys create --name NAME --admin).",
      { code: "admin_key_required" },
    ),
    retry: "none",
  },
];

/** A refusal's OpenAI `type` and `code`, as a response body or a chat stream's error chunk. */
export function openaiOf(refusal: Refusal): { type: string; code: string | null } {
  const { type, code } = openaiErrorBody(refusal.error).error;
  return { type, code };
}

/** A refusal's Anthropic error `type`. */
export function anthropicOf(refusal: Refusal): string {
  return anthropicErrorType(refusal.error.kind);
}

/** The `retry-after` an example refusal carries, if any. */
export function retryAfterOf(refusal: Refusal): string | undefined {
  return refusal.error.headers["retry-after"];
}

/** The status cell: the HTTP status, or how a stream carries it. */
function statusCell(r: Refusal): Part {
  if (!r.stream) return html`<code>${r.error.status}</code>`;
  return html`<code>200</code>, then the stream's terminal error`;
}

/** The `x-should-retry` an example refusal carries, if any. */
export function shouldRetryOf(refusal: Refusal): string | undefined {
  return refusal.error.headers["x-should-retry"];
}

/** The retry-after cell: what it carries, the example's value when that is not fixed, and the
 * example's `x-should-retry` when the refusal sends one. */
function retryCell(r: Refusal): Part {
  const value = retryAfterOf(r);
  const should = shouldRetryOf(r);
  return html`${r.retry}${
    value === undefined || value === r.retry ? "" : html`
      (here <code>${value}</code>)
    `
  }${should === undefined ? "" : html`; <code>x-should-retry: ${should}</code>`}`;
}

/** The OpenAI cell; for a stream, the chat chunk and the Responses `response.failed` code. */
function openaiCell(r: Refusal): Part {
  const { type, code } = openaiOf(r);
  const pair = html`<code>${type}</code> / <code>${code ?? "null"}</code>`;
  if (!r.stream) return pair;
  return html`chat: ${pair} in a last <code>data: {"error": …}</code> chunk, no
    <code>[DONE]</code>; Responses: <code>response.failed</code> with
    <code>${responsesErrorOf(r.error).code}</code>`;
}

/** The full refusal table of the keys page. */
export function refusalTable(): Part {
  return html`
    <div class="table-wrap">
      <table class="refusals">
        <thead>
          <tr>
            <th>When</th>
            <th>Status</th>
            <th>OpenAI <code>type</code> / <code>code</code></th>
            <th>Anthropic <code>type</code></th>
            <th><code>retry-after</code></th>
            <th>Message (example)</th>
          </tr>
        </thead>
        <tbody>${REFUSALS.map((r) =>
          html`
            <tr data-refusal="${r.id}">
              <td>${r.cause}</td>
              <td>${statusCell(r)}</td>
              <td>${openaiCell(r)}</td>
              <td>${r.stream
                ? html`
                  <code>event: error</code> with
                `
                : ""}<code>${anthropicOf(
                  r,
                )}</code></td>
              <td>${retryCell(r)}</td>
              <td><small>${r.error.message}</small></td>
            </tr>
          `
        )}</tbody>
      </table>
    </div>
  `;
}

/** A compact table of the same refusals for the errors page: status, types and codes. */
export function refusalSummary(): Part {
  return html`
    <table class="refusals">
      <thead>
        <tr>
          <th>Status</th>
          <th>OpenAI <code>type</code> / <code>code</code></th>
          <th>Anthropic <code>type</code></th>
          <th>Meaning</th>
        </tr>
      </thead>
      <tbody>${REFUSALS.map((r) => {
        const { type, code } = openaiOf(r);
        return html`
          <tr data-refusal="${r.id}">
            <td>${statusCell(r)}</td>
            <td><code>${type}</code> / <code>${code ?? "null"}</code></td>
            <td><code>${anthropicOf(r)}</code></td>
            <td>${r.cause}</td>
          </tr>
        `;
      })}</tbody>
    </table>
  `;
}
