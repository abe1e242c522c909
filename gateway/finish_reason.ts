/**
 * The stop reasons a forwarded answer gives, as its provider wrote them, for the observers
 * (`gen_ai.response.finish_reasons`). Passthrough does not decode answers: this reads the whole
 * body it already parsed, and a stream's events it already parses for usage and its ending.
 * @module
 */

/** Chat's `finish_reason` and Anthropic's `stop_reason` as an event's text carries them. */
const STOP_FIELD = /"(?:finish_reason|stop_reason)"\s*:\s*"([A-Za-z_]{1,40})"/;
/** A Responses terminal event's status: the response's own is the first `status` it holds. */
const RESPONSE_STATUS =
  /^\{[^{]*"type"\s*:\s*"response\.(?:completed|incomplete)".*?"status"\s*:\s*"([a-z_]{1,40})"/s;

/** The stop reason an event's text carries, or null. */
export function finishReasonOfEvent(data: string): string | null {
  return STOP_FIELD.exec(data)?.[1] ?? RESPONSE_STATUS.exec(data)?.[1] ?? null;
}

/** The stop reasons of a whole JSON answer of any wire: chat's per choice, Anthropic's
 * `stop_reason`, a Responses answer's `incomplete_details.reason` or its status. */
export function finishReasonsOfBody(body: unknown): string[] {
  if (body === null || typeof body !== "object") return [];
  const answer = body as {
    choices?: unknown;
    stop_reason?: unknown;
    status?: unknown;
    incomplete_details?: { reason?: unknown } | null;
  };
  if (Array.isArray(answer.choices)) {
    const reasons = answer.choices
      .map((choice) => (choice as { finish_reason?: unknown } | null)?.finish_reason)
      .filter((reason): reason is string => typeof reason === "string");
    return [...new Set(reasons)];
  }
  if (typeof answer.stop_reason === "string") return [answer.stop_reason];
  const incomplete = answer.incomplete_details?.reason;
  if (typeof incomplete === "string") return [incomplete];
  return typeof answer.status === "string" ? [answer.status] : [];
}
