/**
 * What a request is expected to use, decided at admission before any upstream call: its input
 * tokens (the `tpm` window's entry until the real figure is known) and the dollars its budget
 * reservation holds.
 *
 * The numbers (quoted in the docs):
 * - input tokens ≈ ceil(body bytes / {@link BYTES_PER_TOKEN}) (4 bytes per token; the body's
 *   JSON length when its size is unknown). JSON framing makes this an overestimate for prose.
 * - output reserved, for a streamed answer: min(the request's own limit (`max_tokens`, else
 *   `max_completion_tokens`, else `max_output_tokens`; {@link DEFAULT_OUTPUT_RESERVE} = 1024
 *   when it names none), the model's `max_output_tokens`, {@link OUTPUT_RESERVE_CAP} = 4096).
 * - output reserved, for a whole (non-streamed) answer: everything it may produce, min(its own
 *   limit, else the model's `max_output_tokens`, the model's `max_output_tokens`), 1024 only
 *   when neither is known. A whole answer cannot be metered or cut on its way, so only
 *   reserving all of it keeps the budget a hard cap.
 * - images: the catalog's per-image price × `n` (default 1), plus the prompt at the input price.
 *
 * Why a stream's output reservation is capped: a coding agent asks 32k–128k max tokens on every
 * call and mostly gets a few hundred. Reserving all of it would block a short request under the
 * same budget for as long as a long stream runs ("reservations must not starve agents"). The cap
 * bounds what a reservation holds; output beyond it is metered as it streams (the admission's
 * watch counts each request at max(reservation, actual spend)) and the stream is cut at the
 * budget, so the budget stays a hard cap.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import type { Usage } from "../core/response.ts";
import { costOf } from "../gateway/cost.ts";

/** Bytes of request body counted as one input token. */
export const BYTES_PER_TOKEN = 4;
/** The most output tokens one admission of a stream reserves, whatever the request asks. */
export const OUTPUT_RESERVE_CAP = 4096;
/** Output tokens reserved for a stream that names no output limit (and for a whole answer
 * when neither it nor the model names one). */
export const DEFAULT_OUTPUT_RESERVE = 1024;

/** The canonical route of image generation (no token window: rpm, parallel and budget only). */
export const IMAGES_ROUTE = "/v1/images/generations";

/** Input tokens estimated from the body's size: ceil(bytes / 4); the JSON length of `body` when
 * the size is unknown. */
export function estimateInputTokens(bodyBytes: number | null, body: unknown): number {
  const bytes = bodyBytes ?? JSON.stringify(body)?.length ?? 0;
  return Math.ceil(bytes / BYTES_PER_TOKEN);
}

/** The output limit a request names (`max_tokens`, `max_completion_tokens`,
 * `max_output_tokens`, first present wins), or null. */
export function requestedOutput(body: Record<string, unknown>): number | null {
  const value = body.max_tokens ?? body.max_completion_tokens ?? body.max_output_tokens;
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

/** Output tokens a reservation holds: for a stream (`stream: true`), min(requested or 1024,
 * the model's maximum, 4096); for a whole answer, min(requested or the model's maximum, the
 * model's maximum), 1024 when neither is known. */
export function outputReserve(body: Record<string, unknown>, maxOutputTokens?: number): number {
  const requested = requestedOutput(body);
  const modelMax = maxOutputTokens ?? Infinity;
  if (body.stream !== true) {
    return Math.min(requested ?? maxOutputTokens ?? DEFAULT_OUTPUT_RESERVE, modelMax);
  }
  return Math.min(requested ?? DEFAULT_OUTPUT_RESERVE, modelMax, OUTPUT_RESERVE_CAP);
}

/** Images an image request asks for (`n`, default 1). */
export function imageCount(body: Record<string, unknown>): number {
  const n = body.n;
  return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : 1;
}

/** What admission expects of one request. */
export interface Expected {
  /** Estimated input tokens (also the admission's `inputEstimate`). */
  inputTokens: number;
  /** Output tokens reserved (0 for images). */
  outputTokens: number;
  /** US dollars reserved against a budget. */
  reservationUsd: number;
  /** A whole (non-streamed) text answer, whose reservation is all the output it may produce. */
  whole: boolean;
}

/** The expected use of a request to `model` on `route`: input estimate, bounded output, and the
 * cost of both at the model's price (images: per-image price × n plus the prompt). */
export function expectedUse(
  model: ResolvedModel,
  route: string,
  body: Record<string, unknown>,
  bodyBytes: number | null,
): Expected {
  const inputTokens = estimateInputTokens(bodyBytes, body);
  const images = route === IMAGES_ROUTE;
  const outputTokens = images ? 0 : outputReserve(body, model.maxOutputTokens);
  const usage: Usage = {
    inputTokens,
    outputTokens,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  };
  const reservationUsd = costOf(model.pricing, usage, images ? imageCount(body) : 0);
  return { inputTokens, outputTokens, reservationUsd, whole: !images && body.stream !== true };
}
