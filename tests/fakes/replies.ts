/**
 * Response builders shared by the fakes: JSON bodies, SSE bodies, and the fakes' own loud errors.
 * @module
 */

/** Headers of a streamed answer, as the providers send them. */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
};

/** A JSON answer whose body text is sent as given (recorded files stay byte-for-byte). */
export function jsonTextReply(
  text: string,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(text, {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** A JSON answer. */
export function jsonReply(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return jsonTextReply(JSON.stringify(body), status, headers);
}

/** A streamed answer. */
export function sseReply(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}

/**
 * The fake's own failure (misconfigured test, unexpected request). The body parses as an error on
 * both wires: Anthropic reads `error.type`/`error.message`, OpenAI reads `error.message`.
 */
export function fakeErrorReply(status: number, message: string): Response {
  return jsonReply(
    { type: "error", error: { type: "fake_upstream_error", message, param: null, code: null } },
    status,
  );
}
