/**
 * The Responses stream event types gatehouse writes to clients, for the encoder and for tests
 * that check a stream's shape.
 * @module
 */

/** Every event type `encodeStream` writes. */
export const RESPONSES_EVENT_TYPES = [
  "response.created",
  "response.in_progress",
  "response.output_item.added",
  "response.content_part.added",
  "response.output_text.delta",
  "response.output_text.done",
  "response.refusal.delta",
  "response.refusal.done",
  "response.content_part.done",
  "response.reasoning_summary_part.added",
  "response.reasoning_summary_text.delta",
  "response.reasoning_summary_text.done",
  "response.reasoning_summary_part.done",
  "response.function_call_arguments.delta",
  "response.function_call_arguments.done",
  "response.custom_tool_call_input.delta",
  "response.custom_tool_call_input.done",
  "response.output_item.done",
  "response.completed",
  "response.incomplete",
  "response.failed",
] as const;

/** The terminal event types (exactly one ends every stream). */
export const RESPONSES_TERMINAL_EVENTS = [
  "response.completed",
  "response.incomplete",
  "response.failed",
] as const;

/** One event type `encodeStream` writes. */
export type ResponsesEventType = typeof RESPONSES_EVENT_TYPES[number];
