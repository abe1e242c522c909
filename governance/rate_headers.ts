/**
 * Rate-limit response headers in each client family's own form, so SDKs and agents that pace
 * themselves by them (OpenAI's `x-ratelimit-*`, Anthropic's `anthropic-ratelimit-*`) read
 * gatehouse's limits as they would the vendor's.
 *
 * - OpenAI routes: `x-ratelimit-limit-requests`, `x-ratelimit-remaining-requests`,
 *   `x-ratelimit-reset-requests` and the `-tokens` triple; the reset is the time until the
 *   limit is back to its initial state, as a Go-style duration (`1s`, `6m0s`, `59.2s`, `250ms`).
 * - Messages routes (`/v1/messages…`): `anthropic-ratelimit-requests-limit|remaining|reset` and
 *   the `tokens` triple; the reset is the RFC 3339 time the limit is fully replenished.
 *
 * For a sliding window "fully replenished" is when the newest request it counts is 60 s old.
 * @module
 */

/** One rate limit as the headers report it. */
export interface LimitView {
  /** Whose limit: the key's own or its team's. */
  scope: "key" | "team";
  limit: number;
  remaining: number;
  /** Unix milliseconds at which the limit is fully replenished. */
  resetAt: number;
}

/** The tighter of two views of the same kind of limit: the lower remaining (on a tie, the later
 * reset); either may be null. */
export function tighter(a: LimitView | null, b: LimitView | null): LimitView | null {
  if (a === null) return b;
  if (b === null) return a;
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
  return b.resetAt > a.resetAt ? b : a;
}

/** Whether `route` is an Anthropic Messages route (`/v1/messages`, its `count_tokens`). */
export function isMessagesRoute(route: string): boolean {
  return route.startsWith("/v1/messages");
}

/** A duration the way OpenAI's reset headers (Go's `time.Duration`) print it: `0s`, `250ms`,
 * `1s`, `59.2s`, `6m0s`, `1h0m0s`; whole milliseconds, rounded up. */
export function goDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms));
  if (total === 0) return "0s";
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = `${(total % 60_000) / 1000}s`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}`;
  if (minutes > 0) return `${minutes}m${seconds}`;
  return seconds;
}

/** The last second {@link rfc3339} formatted, and its text: every response under a limit
 * formats a reset time, and they fall in the same few seconds (formatting a `Date` each time was
 * 2% of a policied request's CPU). */
let lastSecond = Number.NaN;
let lastText = "";

/** An RFC 3339 UTC time at whole seconds, rounded up (`2025-01-01T00:01:00Z`). */
export function rfc3339(ms: number): string {
  const second = Math.ceil(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    lastSecond = second;
  }
  return lastText;
}

/** The header names of each family and kind, spelled once (names built per response made every
 * policied response's header record a dictionary of fresh strings). */
const NAMES = {
  anthropic: {
    requests: [
      "anthropic-ratelimit-requests-limit",
      "anthropic-ratelimit-requests-remaining",
      "anthropic-ratelimit-requests-reset",
    ],
    tokens: [
      "anthropic-ratelimit-tokens-limit",
      "anthropic-ratelimit-tokens-remaining",
      "anthropic-ratelimit-tokens-reset",
    ],
  },
  openai: {
    requests: [
      "x-ratelimit-limit-requests",
      "x-ratelimit-remaining-requests",
      "x-ratelimit-reset-requests",
    ],
    tokens: [
      "x-ratelimit-limit-tokens",
      "x-ratelimit-remaining-tokens",
      "x-ratelimit-reset-tokens",
    ],
  },
} as const;

/** The rate-limit headers for a response on `route` at `now`; undefined when neither limit
 * applies. */
export function rateHeaders(
  route: string,
  now: number,
  requests: LimitView | null,
  tokens: LimitView | null,
): Record<string, string> | undefined {
  if (requests === null && tokens === null) return undefined;
  const headers: Record<string, string> = {};
  const messages = isMessagesRoute(route);
  const family = messages ? NAMES.anthropic : NAMES.openai;
  const put = (kind: "requests" | "tokens", view: LimitView | null) => {
    if (view === null) return;
    const [limit, remaining, reset] = family[kind];
    headers[limit] = String(view.limit);
    headers[remaining] = String(view.remaining);
    headers[reset] = messages ? rfc3339(view.resetAt) : goDuration(view.resetAt - now);
  };
  put("requests", requests);
  put("tokens", tokens);
  return headers;
}
