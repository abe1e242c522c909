/**
 * TypeScript shapes of the Anthropic Messages bodies gatehouse writes: request bodies sent
 * upstream, message bodies and stream events sent to clients.
 * @module
 */

/** A text block. */
export interface WireText {
  type: "text";
  text: string;
  cache_control?: Record<string, unknown>;
}

/** A binary source. */
export type WireSource =
  | { type: "base64"; media_type: string; data: string }
  | { type: "url"; url: string }
  | { type: "text"; media_type: "text/plain"; data: string };

/** An image block. */
export interface WireImage {
  type: "image";
  source: WireSource;
}

/** A document block. */
export interface WireDocument {
  type: "document";
  source: WireSource;
  title?: string;
}

/** A thinking block (`signature` may be "" when no Anthropic signature exists). */
export interface WireThinking {
  type: "thinking";
  thinking: string;
  signature: string;
}

/** A redacted thinking block. */
export interface WireRedactedThinking {
  type: "redacted_thinking";
  data: string;
}

/** A tool call. */
export interface WireToolUse {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** A tool result. */
export interface WireToolResult {
  type: "tool_result";
  tool_use_id: string;
  content?: Array<WireText | WireImage | WireDocument>;
  is_error?: boolean;
}

/** Blocks of a user turn. */
export type WireUserBlock = WireText | WireImage | WireDocument | WireToolResult;
/** Blocks of an assistant turn (and of a response). */
export type WireAssistantBlock = WireText | WireThinking | WireRedactedThinking | WireToolUse;

/** One turn of an upstream request. */
export type WireMessage =
  | { role: "user"; content: WireUserBlock[] }
  | { role: "assistant"; content: WireAssistantBlock[] }
  | { role: "system"; content: WireText[] };

/** Usage as the wire reports it. */
export interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens_details?: { thinking_tokens: number };
}

/** Why a message stopped, beyond its stop reason (only refusals have details). */
export interface WireStopDetails {
  type: "refusal";
  category: string | null;
  explanation: string | null;
}

/** A complete message body. */
export interface WireMessageBody {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: WireAssistantBlock[];
  stop_reason: string | null;
  stop_sequence: string | null;
  stop_details: WireStopDetails | null;
  usage: WireUsage;
}

/** The request body sent upstream. */
export interface WireRequest {
  model: string;
  max_tokens: number;
  messages: WireMessage[];
  system?: WireText[];
  tools?: Array<Record<string, unknown>>;
  tool_choice?: Record<string, unknown>;
  thinking?: Record<string, unknown>;
  output_config?: { effort?: string; format?: { type: "json_schema"; schema: unknown } };
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  metadata?: { user_id: string };
  stream?: boolean;
}
