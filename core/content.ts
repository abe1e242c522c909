/**
 * Content parts of the internal representation. Every client protocol decodes into these and
 * every upstream wire encodes from them; nothing here knows a wire format.
 * @module
 */

/** An opaque vendor token (Anthropic thinking signature, OpenAI encrypted reasoning). It may
 * only be sent back to the vendor that issued it. */
export interface VendorToken {
  vendor: "anthropic" | "openai";
  value: string;
}

/** Plain text. `cacheControl` keeps Anthropic's marker for same-vendor encoders. */
export interface TextPart {
  type: "text";
  text: string;
  cacheControl?: Record<string, unknown>;
}

/** Where binary content comes from. */
export type MediaSource =
  | { kind: "base64"; mediaType: string; data: string }
  | { kind: "url"; url: string }
  | { kind: "file_id"; fileId: string };

/** An image input. `detail` is OpenAI's resolution hint. */
export interface ImagePart {
  type: "image";
  source: MediaSource;
  detail?: "auto" | "low" | "high";
}

/** A document (PDF or plain text) input. */
export interface DocumentPart {
  type: "document";
  source: MediaSource | { kind: "text"; mediaType: string; text: string };
  title?: string;
  filename?: string;
}

/** Model reasoning. `text` is the readable thinking or summary; `token` is the vendor's opaque
 * continuation (signature or encrypted content); `redacted` marks Anthropic redacted thinking
 * whose only payload is the token. `summary` is true when `text` is a summary (OpenAI). */
export interface ReasoningPart {
  type: "reasoning";
  text: string;
  token?: VendorToken;
  redacted?: boolean;
  summary?: boolean;
  /** Upstream item id (OpenAI `rs_...`), kept so same-vendor turns can reference it. */
  itemId?: string;
}

/** A tool call by the model. `arguments` is the JSON text for function tools and the raw
 * free-form input for custom tools. */
export interface ToolCallPart {
  type: "tool_call";
  id: string;
  name: string;
  arguments: string;
  kind: "function" | "custom" | "local_shell";
  /** Upstream item id (OpenAI `fc_...`), distinct from the call id. */
  itemId?: string;
}

/** The result of a tool call, sent back by the client. */
export interface ToolResultPart {
  type: "tool_result";
  toolCallId: string;
  content: Array<TextPart | ImagePart | DocumentPart>;
  isError?: boolean;
  kind?: "function" | "custom" | "local_shell";
}

/** Any part a user message may hold. */
export type UserPart = TextPart | ImagePart | DocumentPart;
/** Any part an assistant message or response may hold. */
export type AssistantPart = TextPart | ReasoningPart | ToolCallPart;
