/**
 * The governor's refusals, each saying which limit (the key's or its team's, and its number),
 * where the request stands against it, and when or how to go on.
 *
 * | refusal            | status | kind         | code                  | retry-after                |
 * | ------------------ | ------ | ------------ | --------------------- | -------------------------- |
 * | model not allowed  | 403    | `permission` | `model_not_allowed`   | —                          |
 * | rpm, tpm           | 429    | `rate_limit` | `rate_limit_exceeded` | when the window admits it  |
 * | tpm, never fits    | 429    | `rate_limit` | `rate_limit_exceeded` | — (shorten the request)    |
 * | max_parallel       | 429    | `rate_limit` | `rate_limit_exceeded` | 1                          |
 * | budget             | 429    | `quota`      | `insufficient_quota`  | seconds to the period end  |
 * | budget (in flight) | 429    | `quota`      | `insufficient_quota`  | 1                          |
 *
 * Every 429 also says `x-should-retry` (Anthropic's header, which the OpenAI and Anthropic SDKs
 * and Claude Code obey before anything else): `true` exactly when it has a `retry-after` of at
 * most a minute. How the real clients read a 429 (tests/clients/*_rate_limit_test.ts run them
 * against one): Codex retries an HTTP 429 only when it has `retry-after`, waiting exactly that,
 * up to 5 times, and never one whose code is `insufficient_quota`; Claude Code waits a
 * `retry-after` of up to 60 s (and gives up at once on a longer one), else backs off on its own
 * (from 0.5 s, doubling, at most ~40 s) up to 10 times; the SDKs wait a `retry-after` of up to
 * 60 s, else back off. So without `x-should-retry: false` a refusal no wait cures (a request too
 * large for tpm, a `total` budget spent) would be resent for nothing: by Claude Code 10 times
 * over about 3 minutes before it shows the message.
 * @module
 */
import { GatewayError } from "../core/errors.ts";
import type { BudgetPeriod } from "./policy.ts";
import { BYTES_PER_TOKEN } from "./estimate.ts";
import { rfc3339 } from "./rate_headers.ts";
import type { ScopeKind } from "./scope.ts";

/** Whose limit refused: the kind, and the id for a team. */
export interface Whose {
  kind: ScopeKind;
  id: string;
}

const who = (w: Whose) => w.kind === "key" ? "this key" : `team "${w.id}" (shared by its keys)`;
const whose = (w: Whose) => w.kind === "key" ? "the key's" : `team "${w.id}"'s`;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
const were = (count: number) => count === 1 ? "was" : "were";

/** Whole seconds to wait, at least 1, rounded up. */
export function retrySeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** Dollars for a message: at least two decimals, up to six, trailing zeros dropped. */
export function usd(amount: number): string {
  const fixed = amount.toFixed(6).replace(/0{1,4}$/, "");
  return `$${fixed}`;
}

/** A coarse human duration: `45 s`, `12 min`, `3 h 12 min`, `5 d 3 h`. */
export function humanDuration(ms: number): string {
  const s = retrySeconds(ms);
  if (s < 60) return `${s} s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** 403: the model is not in a `models` list of the key or its team. */
export function modelNotAllowed(
  w: Whose,
  requested: string,
  id: string,
  allowed: readonly string[],
): GatewayError {
  const name = requested === id ? `"${id}"` : `"${requested}" (catalog id "${id}")`;
  const list = allowed.length === 0 ? "no model" : `only ${allowed.join(", ")}`;
  const owner = w.kind === "key" ? "this key" : `team "${w.id}" of this key`;
  return new GatewayError(
    "permission",
    403,
    `Model ${name} is not allowed for ${owner}: ${whose(w)} policy allows ${list}. Call one of ` +
      `those models, or ask an admin to add "${id}" to ${whose(w)} models.`,
    { param: "model", code: "model_not_allowed" },
  );
}

/** The longest `retry-after` (seconds) a retry is still worth waiting for: clients ignore a
 * longer one (the OpenAI and Anthropic SDKs above 60 s; Claude Code gives up). */
export const RETRY_HORIZON_SECONDS = 60;

/** `headers` plus `retry-after` (when a wait can cure the refusal) and `x-should-retry`: true
 * only when that wait is at most {@link RETRY_HORIZON_SECONDS}. */
export function retryHeaders(
  headers: Record<string, string>,
  retryAfterSeconds: number | null,
): Record<string, string> {
  const worth = retryAfterSeconds !== null && retryAfterSeconds <= RETRY_HORIZON_SECONDS;
  return {
    ...headers,
    ...(retryAfterSeconds === null ? {} : { "retry-after": String(retryAfterSeconds) }),
    "x-should-retry": String(worth),
  };
}

function rateLimited(
  limit: "rpm" | "tpm" | "max_parallel",
  message: string,
  headers: Record<string, string>,
  retryAfterSeconds: number | null,
): GatewayError {
  return new GatewayError("rate_limit", 429, message, {
    code: "rate_limit_exceeded",
    limit,
    headers: retryHeaders(headers, retryAfterSeconds),
  });
}

/** 429: the `rpm` window is full for `waitMs` more milliseconds. */
export function rpmExceeded(
  w: Whose,
  rpm: number,
  waitMs: number,
  headers: Record<string, string>,
): GatewayError {
  const seconds = retrySeconds(waitMs);
  return rateLimited(
    "rpm",
    `Rate limit reached for ${who(w)}: ${plural(rpm, "request")} per minute (rpm), and ` +
      `${rpm} ${were(rpm)} admitted in the last 60 seconds. Retry in ${seconds} s.`,
    headers,
    seconds,
  );
}

/** 429: the `tpm` window has no room for `needed` tokens for `waitMs` more milliseconds;
 * Infinity when they exceed the limit alone (no retry-after: waiting will not help). */
export function tpmExceeded(
  w: Whose,
  tpm: number,
  used: number,
  needed: number,
  waitMs: number,
  headers: Record<string, string>,
): GatewayError {
  if (waitMs === Infinity) {
    return rateLimited(
      "tpm",
      `This request needs about ${needed} input tokens (its body at ${BYTES_PER_TOKEN} bytes ` +
        `per token), more than ${whose(w)} limit of ${tpm} tokens per minute (tpm): it can ` +
        "never fit. Send a shorter request, or ask an admin to raise tpm.",
      headers,
      null,
    );
  }
  const seconds = retrySeconds(waitMs);
  return rateLimited(
    "tpm",
    `Rate limit reached for ${who(w)}: ${plural(tpm, "token")} per minute (tpm); ${used} ` +
      `${were(used)} counted in the last 60 seconds and this request needs about ${needed}. ` +
      `Retry in ${seconds} s.`,
    headers,
    seconds,
  );
}

/** 429: `max_parallel` requests are already in flight. */
export function parallelExceeded(
  w: Whose,
  maxParallel: number,
  headers: Record<string, string>,
): GatewayError {
  return rateLimited(
    "max_parallel",
    `Too many requests in flight for ${who(w)}: max_parallel is ${maxParallel}, and ` +
      `${maxParallel} ${maxParallel === 1 ? "is" : "are"} running (streams included). Retry ` +
      "when one finishes.",
    headers,
    1,
  );
}

/** Where a budget stands, for its messages. */
export interface BudgetFigures {
  budgetUsd: number;
  period: BudgetPeriod;
  settledUsd: number;
  heldUsd: number;
  holds: number;
  /** Unix ms the period ends; null for `total`. */
  resetsAt: number | null;
}

const PER: Record<BudgetPeriod, string> = {
  day: "per day (UTC)",
  week: "per week (UTC, from Monday)",
  month: "per month (UTC)",
  total: "in total",
};

function resets(resetsAt: number | null, now: number): string {
  return resetsAt === null
    ? "It never resets: the budget is total; ask an admin to raise budget_usd."
    : `The budget resets at ${rfc3339(resetsAt)} (in ${humanDuration(resetsAt - now)}).`;
}

/** 429 `insufficient_quota`: `reservationUsd` does not fit in the budget (`wholeOutputTokens`:
 * the output a whole, non-streamed answer reserved, named with how to hold less). When it would fit but
 * for the holds of requests in flight, the message says to retry when they finish
 * (retry-after 1); otherwise retry-after is the time to the period's end (none for `total`),
 * and `x-should-retry` is false unless that end is within a minute. */
export function budgetExceeded(
  w: Whose,
  f: BudgetFigures,
  reservationUsd: number,
  now: number,
  headers: Record<string, string>,
  wholeOutputTokens: number | null = null,
): GatewayError {
  const inFlight = f.settledUsd + reservationUsd <= f.budgetUsd;
  // A whole answer cannot be cut, so it reserves all it may produce: say how to hold less.
  const whole = wholeOutputTokens === null ? "" : ` It is a whole (non-streamed) answer, which ` +
    `reserves all the output it may produce (${wholeOutputTokens} tokens): stream it, or set a ` +
    "lower max_tokens, to reserve less.";
  const retry = inFlight ? 1 : f.resetsAt === null ? null : retrySeconds(f.resetsAt - now);
  const next = inFlight
    ? `Requests in flight hold part of it: retry when they finish. ${resets(f.resetsAt, now)}`
    : resets(f.resetsAt, now);
  return new GatewayError(
    "quota",
    429,
    `Budget exceeded for ${who(w)}: ${usd(f.budgetUsd)} ${PER[f.period]}; ` +
      `${usd(f.settledUsd + f.heldUsd)} spent this period (${usd(f.settledUsd)} settled + ` +
      `${usd(f.heldUsd)} held by ${f.holds} request${f.holds === 1 ? "" : "s"} in flight), ` +
      `and this request reserves ${usd(reservationUsd)}.${whole} ${next}`,
    { code: "insufficient_quota", limit: "budget", headers: retryHeaders(headers, retry) },
  );
}

/** The error a watched stream ends with once the budget is reached (`spentUsd`: settled plus
 * requests in flight, this one at its actual spend). */
export function budgetReached(
  w: Whose,
  f: BudgetFigures,
  spentUsd: number,
  now: number,
): GatewayError {
  return new GatewayError(
    "quota",
    429,
    `Budget reached for ${who(w)}: ${usd(spentUsd)} spent of ${usd(f.budgetUsd)} ` +
      `${PER[f.period]} (settled plus requests in flight), so the response ends here. ` +
      resets(f.resetsAt, now),
    { code: "insufficient_quota" },
  );
}
