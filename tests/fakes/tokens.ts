/**
 * Deterministic token numbers for the fakes: one token per started group of 4 UTF-8 bytes.
 * Real tokenizers differ; tests only need numbers that grow with the input and repeat exactly.
 * @module
 */

const encoder = new TextEncoder();

/** `ceil(utf8Bytes(text) / 4)`, at least 1 for non-empty text. */
export function estimateTokens(text: string): number {
  return Math.ceil(encoder.encode(text).length / 4);
}

/**
 * The body of `POST /v1/messages/count_tokens`: `{"input_tokens": ceil(rawBodyBytes / 4)}`,
 * computed from the request body exactly as received.
 */
export function countTokensBody(rawBody: string): { input_tokens: number } {
  return { input_tokens: estimateTokens(rawBody) };
}
