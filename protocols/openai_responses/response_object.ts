/**
 * The Responses response object around the output: status, usage and the request fields
 * OpenAI echoes back (instructions, tools, tool_choice, reasoning, text, ...) that SDKs read.
 * Shared by the non-streamed body and the lifecycle events of a stream.
 * @module
 */
import type { CoreRequest, ResponseFormat } from "../../core/request.ts";
import type { EncodeContext } from "../codec.ts";
import { namespaceRestorer } from "./namespaces.ts";
import type { WireOutputItem, WireResponse, WireResponseStatus, WireUsage } from "./wire.ts";

/** What varies between snapshots of one response. */
export interface ResponseState {
  id: string;
  createdAt: number;
  status: WireResponseStatus;
  output: WireOutputItem[];
  usage: WireUsage | null;
  error?: { code: string; message: string };
  incompleteReason?: string;
}

function echoFormat(format: ResponseFormat | undefined): Record<string, unknown> {
  if (!format || format.type !== "json_schema") return { type: format?.type ?? "text" };
  return {
    type: "json_schema",
    name: format.name,
    schema: format.schema,
    strict: format.strict ?? null,
    description: format.description ?? null,
  };
}

/** The tools as the client declared them: namespaced tools regrouped, local shell native. */
export function echoTools(request: CoreRequest): unknown[] {
  const out: unknown[] = [];
  const namespaces = new Map<string, { type: "namespace"; name: string; tools: unknown[] }>();
  const restore = namespaceRestorer(request);
  for (const tool of request.tools) {
    let echoed: Record<string, unknown>;
    if (tool.type === "builtin") {
      if (tool.vendor === "openai") out.push(tool.raw);
      continue;
    }
    if (tool.type === "function" && tool.native === "local_shell") {
      out.push({ type: "local_shell" });
      continue;
    }
    const { name } = restore(tool.name);
    if (tool.type === "function") {
      echoed = {
        type: "function",
        name,
        description: tool.description ?? null,
        parameters: tool.parameters,
        strict: tool.strict ?? null,
      };
    } else {
      echoed = { type: "custom", name, description: tool.description ?? null };
      if (tool.format) echoed.format = tool.format;
    }
    if (tool.namespace === undefined) {
      out.push(echoed);
      continue;
    }
    let group = namespaces.get(tool.namespace);
    if (!group) {
      group = { type: "namespace", name: tool.namespace, tools: [] };
      namespaces.set(tool.namespace, group);
      out.push(group);
    }
    group.tools.push(echoed);
  }
  return out;
}

function echoToolChoice(r: CoreRequest): unknown {
  const choice = r.toolChoice;
  if (!choice) return "auto";
  if (choice.type !== "tool") return choice.type;
  const tool = r.tools.find((t) => t.name === choice.name);
  if (tool?.type === "builtin") return { type: tool.name };
  return {
    type: tool?.type === "custom" ? "custom" : "function",
    ...namespaceRestorer(r)(choice.name),
  };
}

function instructionsOf(request: CoreRequest): string | null {
  if (request.system.length === 0) return null;
  return request.system.map((p) => p.text).join("\n\n");
}

/** A full response object for `state`, echoing the client's request. */
export function responseObject(ctx: EncodeContext, state: ResponseState): WireResponse {
  const r = ctx.request;
  const effort = r.reasoning?.effort === "max" ? "xhigh" : r.reasoning?.effort ?? null;
  const text: WireResponse["text"] = { format: echoFormat(r.responseFormat) };
  if (r.verbosity) text.verbosity = r.verbosity;
  return {
    id: state.id,
    object: "response",
    created_at: state.createdAt,
    status: state.status,
    background: false,
    error: state.error ?? null,
    incomplete_details: state.incompleteReason ? { reason: state.incompleteReason } : null,
    instructions: instructionsOf(r),
    max_output_tokens: r.maxOutputTokens ?? null,
    model: ctx.clientModel,
    output: state.output,
    parallel_tool_calls: r.parallelToolCalls ?? true,
    previous_response_id: null,
    prompt_cache_key: r.promptCacheKey ?? null,
    reasoning: { effort, summary: r.reasoning?.summary ?? null },
    store: r.store ?? true,
    temperature: r.temperature ?? null,
    text,
    tool_choice: echoToolChoice(r),
    tools: echoTools(r),
    top_p: r.topP ?? null,
    truncation: "disabled",
    usage: state.usage,
    user: r.user ?? null,
    metadata: r.metadata ?? {},
  };
}
