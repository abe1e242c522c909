/**
 * What the attempt stage retries and how long it waits: the statuses providers use for "not now"
 * (408, 429, 5xx, Anthropic's 529 overloaded), exponential backoff with full jitter, and the
 * provider's own `retry-after` when it names a short wait.
 * @module
 */
import type { HeaderReader } from "../core/header_reader.ts";

/** Statuses retried on another attempt. Other 4xx are the client's to fix. */
const RETRYABLE = new Set([408, 429, 500, 502, 503, 504, 529]);

/** First backoff ceiling, ms. */
export const BACKOFF_BASE_MS = 250;
/** Largest backoff ceiling, ms. */
export const BACKOFF_CAP_MS = 4000;
/** The longest upstream `retry-after` the gateway waits out itself; a longer one goes to another
 * deployment or back to the client. */
export const MAX_HONOURED_RETRY_AFTER_MS = 30_000;

/** Whether an upstream status is worth another attempt. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE.has(status);
}

/** The wait before retry `n` (1 for the first retry): uniform in [0, min(cap, base·2^(n-1))]
 * (full jitter: clients that failed together do not come back together). */
export function backoffMs(n: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, n - 1));
  return Math.floor(random() * ceiling);
}

/** The wait a provider asked for, ms: `retry-after-ms`, else `retry-after` in seconds or as an
 * HTTP date; null when it named none (or nonsense). */
export function retryAfterMs(headers: HeaderReader, now = Date.now()): number | null {
  const rawMs = headers.get("retry-after-ms")?.trim();
  const ms = rawMs ? Number(rawMs) : NaN;
  if (Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.ceil(seconds * 1000) : null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** How providers say a request does not fit the context window: OpenAI's
 * `context_length_exceeded` code; Anthropic's 400 "prompt is too long: N tokens > M maximum" and
 * "input length and `max_tokens` exceed context limit"; OpenAI-compatible servers' "maximum
 * context length". */
const CONTEXT_OVERFLOW =
  /context_length_exceeded|prompt is too long|exceeds? (the )?context (limit|window)|maximum context length/i;

/** Whether an upstream status may say the request overflowed the context (its body tells). */
export function mayBeContextOverflow(status: number): boolean {
  return status === 400 || status === 413 || status === 422;
}

/** Whether an upstream error (status and body text) says the request overflowed the context. */
export function isContextOverflow(status: number, body: string): boolean {
  return mayBeContextOverflow(status) && CONTEXT_OVERFLOW.test(body);
}
