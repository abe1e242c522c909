/**
 * The internal request: what every client protocol decodes into and every upstream wire
 * encodes from.
 * @module
 */
import type { AssistantPart, TextPart, ToolResultPart, UserPart } from "./content.ts";

/** The wire formats gatehouse speaks, as client protocol or upstream. */
export type Wire = "openai_chat" | "openai_responses" | "anthropic_messages";

/** A system or developer instruction placed inside the conversation (Claude Code sends a
 * `system`-role message after the first user turn; Responses has `developer` messages). */
export interface SystemMessage {
  role: "system";
  content: TextPart[];
  /** `developer` when the client said developer rather than system. */
  flavor?: "system" | "developer";
}

/** A user turn. */
export interface UserMessage {
  role: "user";
  content: UserPart[];
}

/** An assistant turn from the history. */
export interface AssistantMessage {
  role: "assistant";
  content: AssistantPart[];
}

/** Tool results. Anthropic carries them inside a user turn; decoders split them out and
 * encoders merge them back. */
export interface ToolMessage {
  role: "tool";
  content: ToolResultPart[];
}

/** One turn of the conversation. */
export type CoreMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A function tool with a JSON Schema for its arguments. */
export interface FunctionTool {
  type: "function";
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
  strict?: boolean;
  /** Responses `namespace` the tool was declared in (Codex MCP tools). `name` is then the
   * flattened `<namespace>__<child>` form every wire accepts; the Responses client codec turns
   * calls back into `{namespace, name}`. */
  namespace?: string;
  /** Set when this function stands for a Responses built-in that the client executes (Codex
   * `local_shell`): the OpenAI Responses upstream gets the native tool, other wires this
   * function. */
  native?: "local_shell";
}

/** A free-form tool (Responses `custom`, e.g. Codex's apply_patch). Upstreams without it get a
 * function tool with one string property, named by `CUSTOM_TOOL_INPUT_FIELD`. */
export interface CustomTool {
  type: "custom";
  name: string;
  description?: string;
  format?: Record<string, unknown>;
  /** Responses `namespace` the tool was declared in; see `FunctionTool.namespace`. */
  namespace?: string;
}

/** A vendor-hosted tool (web_search, image_generation, Anthropic server tools, ...): forwarded
 * only to its own vendor, dropped with a warning elsewhere. */
export interface BuiltinTool {
  type: "builtin";
  vendor: "openai" | "anthropic";
  name: string;
  raw: Record<string, unknown>;
}

/** Any tool definition. */
export type CoreTool = FunctionTool | CustomTool | BuiltinTool;

/** The property name used when a custom tool is carried as a function tool. */
export const CUSTOM_TOOL_INPUT_FIELD = "input";

/** Which tool the model must use. */
export type ToolChoice =
  | { type: "auto" }
  | { type: "required" }
  | { type: "none" }
  | { type: "tool"; name: string };

/** Reasoning effort levels across vendors. */
export type ReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** Reasoning settings. `mode`: `adaptive` lets the model decide (Anthropic adaptive thinking,
 * OpenAI effort), `enabled` with an explicit budget, `disabled` off. */
export interface ReasoningConfig {
  mode: "adaptive" | "enabled" | "disabled";
  effort?: ReasoningEffort;
  budgetTokens?: number;
  summary?: "auto" | "concise" | "detailed";
  /** Anthropic `display` (`omitted` hides thinking text). */
  display?: string;
  /** The client asked for the opaque continuation back (Responses `include`). */
  includeEncrypted?: boolean;
}

/** Structured output. */
export type ResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | {
    type: "json_schema";
    name: string;
    schema: Record<string, unknown>;
    strict?: boolean;
    description?: string;
  };

/** The internal request. `model` is the upstream model id once the gateway has resolved it. */
export interface CoreRequest {
  model: string;
  system: TextPart[];
  messages: CoreMessage[];
  tools: CoreTool[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: string[];
  reasoning?: ReasoningConfig;
  responseFormat?: ResponseFormat;
  verbosity?: "low" | "medium" | "high";
  /** End-user id (OpenAI `user`, Anthropic `metadata.user_id`). */
  user?: string;
  metadata?: Record<string, string>;
  store?: boolean;
  promptCacheKey?: string;
  stream: boolean;
  /** The client asked for a usage report at the end of its stream (OpenAI chat
   * `stream_options.include_usage`); encoders of wires that always report usage ignore it. */
  includeStreamUsage?: boolean;
  /** The wire the client spoke, for decisions that depend on origin. */
  source: Wire;
}

/** `request` without its conversation: what an encoder or decoder keeps for a stream's life. The
 * messages are the prompt, most of a coding agent's request, and nothing reads them once the
 * upstream call is made; a stream that kept them would hold the whole prompt while it is open. */
export function withoutMessages(request: CoreRequest): CoreRequest {
  return { ...request, messages: [] };
}
