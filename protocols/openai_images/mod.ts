/**
 * The OpenAI images wire (`POST /v1/images/generations`): forwarded to an images upstream with
 * only the model id rewritten, its generated images and token usage read for the ledger.
 * @module
 */
import type { Usage } from "../../core/response.ts";
import { emptyUsage } from "../../core/response.ts";
import type { ForwardCodec } from "../codec.ts";
import { decodeError } from "../openai_chat/decode_error.ts";

/** The wire's path on a provider. */
export const imagesPath = "/v1/images/generations";

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? value as Record<string, unknown> : {};
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/** Token usage of an images response (gpt-image models report it; others do not). */
function imagesUsage(body: unknown): Usage | null {
  const usage = record(body).usage;
  if (usage === undefined || usage === null) return null;
  const fields = record(usage);
  return {
    ...emptyUsage(),
    inputTokens: count(fields.input_tokens),
    outputTokens: count(fields.output_tokens),
  };
}

/** How many images an images response carries. */
function imagesCount(body: unknown): number {
  const data = record(body).data;
  return Array.isArray(data) ? data.length : 0;
}

/** The images wire for forwarding to `providerName`. */
export function createImagesCodec(providerName: string): ForwardCodec {
  return {
    wire: "openai_images",
    path: imagesPath,
    usageOfBody: imagesUsage,
    imagesOfBody: imagesCount,
    decodeError: (status, body, headers) => decodeError(providerName, status, body, headers),
  };
}
