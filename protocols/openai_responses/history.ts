/**
 * `previous_response_id` chaining. gatehouse is stateless toward providers: the gateway stores
 * each response's conversation and, when a request names a previous response, looks it up
 * BEFORE decoding and prepends it with `prependHistory`. As on OpenAI, the earlier turn's
 * `instructions` are not carried over; only its messages are.
 * @module
 */
import type { CoreMessage, CoreRequest } from "../../core/request.ts";

/** The `previous_response_id` of a raw request body, or null when absent or not a string. */
export function previousResponseId(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const id = (body as Record<string, unknown>).previous_response_id;
  return typeof id === "string" && id !== "" ? id : null;
}

/** The request with `history` (the earlier turns, oldest first) in front of its messages. */
export function prependHistory(request: CoreRequest, history: CoreMessage[]): CoreRequest {
  return { ...request, messages: [...history, ...request.messages] };
}
