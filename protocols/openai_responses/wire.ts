/**
 * TypeScript shapes of the Responses bodies gatehouse writes: output items, the response object
 * and usage (sent to clients), and input items (sent upstream).
 * @module
 */

/** Lifecycle status of an output item. */
export type WireItemStatus = "in_progress" | "completed" | "incomplete";

/** Assistant text. */
export interface WireOutputText {
  type: "output_text";
  text: string;
  annotations: unknown[];
}

/** A refusal: the model's explanation of why it declined. */
export interface WireRefusal {
  type: "refusal";
  refusal: string;
}

/** An assistant message output item. */
export interface WireMessageItem {
  type: "message";
  id: string;
  role: "assistant";
  status: WireItemStatus;
  content: Array<WireOutputText | WireRefusal>;
}

/** One reasoning summary paragraph. */
export interface WireSummaryText {
  type: "summary_text";
  text: string;
}

/** A reasoning output item; `encrypted_content` only when the client asked for it. */
export interface WireReasoningItem {
  type: "reasoning";
  id: string;
  summary: WireSummaryText[];
  encrypted_content?: string;
}

/** A function call output item. `namespace` is set for tools declared in a namespace. */
export interface WireFunctionCallItem {
  type: "function_call";
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  status: WireItemStatus;
  namespace?: string;
}

/** A free-form tool call output item. */
export interface WireCustomToolCallItem {
  type: "custom_tool_call";
  id: string;
  call_id: string;
  name: string;
  input: string;
  status: WireItemStatus;
  namespace?: string;
}

/** The command a local shell call asks the client to run. */
export interface WireLocalShellAction {
  type: "exec";
  command: string[];
  env: Record<string, string>;
  working_directory?: string;
  timeout_ms?: number;
  user?: string;
}

/** A local shell call output item (executed by the client). */
export interface WireLocalShellCallItem {
  type: "local_shell_call";
  id: string;
  call_id: string;
  status: WireItemStatus;
  action: WireLocalShellAction;
}

/** Any output item gatehouse writes. */
export type WireOutputItem =
  | WireMessageItem
  | WireReasoningItem
  | WireFunctionCallItem
  | WireCustomToolCallItem
  | WireLocalShellCallItem;

/** Token usage of a response. */
export interface WireUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** Terminal status of a response. */
export type WireResponseStatus = "in_progress" | "completed" | "incomplete" | "failed";

/** The response object (non-streamed body and lifecycle events' `response`). */
export interface WireResponse {
  id: string;
  object: "response";
  created_at: number;
  status: WireResponseStatus;
  background: false;
  error: { code: string; message: string } | null;
  incomplete_details: { reason: string } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: WireOutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: null;
  prompt_cache_key: string | null;
  reasoning: { effort: string | null; summary: string | null };
  store: boolean;
  temperature: number | null;
  text: { format: Record<string, unknown>; verbosity?: string };
  tool_choice: unknown;
  tools: unknown[];
  top_p: number | null;
  truncation: "disabled";
  usage: WireUsage | null;
  user: string | null;
  metadata: Record<string, string>;
}

/** An input content part sent upstream. */
export type WireInputPart =
  | { type: "input_text"; text: string }
  | { type: "input_image"; image_url?: string; file_id?: string; detail: string }
  | {
    type: "input_file";
    file_data?: string;
    file_url?: string;
    file_id?: string;
    filename?: string;
  };

/** An input item sent upstream. */
export type WireInputItem =
  | { type: "message"; role: "user" | "system" | "developer"; content: WireInputPart[] }
  | { type: "message"; role: "assistant"; content: WireOutputText[] }
  | {
    type: "reasoning";
    id?: string;
    summary: WireSummaryText[];
    encrypted_content: string;
  }
  | { type: "function_call"; id?: string; call_id: string; name: string; arguments: string }
  | { type: "custom_tool_call"; id?: string; call_id: string; name: string; input: string }
  | {
    type: "local_shell_call";
    id?: string;
    call_id: string;
    status: "completed";
    action: WireLocalShellAction;
  }
  | { type: "function_call_output"; call_id: string; output: string | WireInputPart[] }
  | { type: "custom_tool_call_output"; call_id: string; output: string | WireInputPart[] }
  | { type: "local_shell_call_output"; call_id: string; output: string };
