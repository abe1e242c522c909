/**
 * A Responses body from an OpenAI upstream → the core response. Output items map to parts:
 * reasoning (summary text, encrypted content as an OpenAI token, item id), message text
 * (refusal parts become the stop details' explanation, with stop reason `refusal`), and
 * function/custom/local shell calls with their names restored (shortened and namespaced names,
 * the `parallel` wrapper expanded).
 * Hosted-tool items (web search, file search, ...) have no core counterpart and are dropped
 * with a warning.
 * @module
 */
import type { AssistantPart, ReasoningPart, ToolCallPart } from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import { GatewayError } from "../../core/errors.ts";
import type { CoreRequest } from "../../core/request.ts";
import type { CoreResponse } from "../../core/response.ts";
import { toolNameRestorer } from "../tool_names.ts";
import { streamFailure } from "./error_codes.ts";
import { LOCAL_SHELL_NAME, localShellArguments } from "./local_shell.ts";
import { stopReasonOf } from "./map_stop_reason.ts";
import { type ResponsesUsageFields, usageFromResponses } from "./map_usage.ts";
import { flattenNamespaced } from "./namespaces.ts";
import { expandParallelWrapper, isParallelWrapper } from "./parallel_wrapper.ts";

/** An output item as read from the wire (fields checked where used). */
export type RawItem = Record<string, unknown> & { type?: unknown };

const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** A call item → the core call (without arguments checks), or null for other items. */
export function callOfItem(
  item: RawItem,
  restore: (name: string) => string,
): Omit<ToolCallPart, "type"> | null {
  const namespaced = (name: string) =>
    restore(typeof item.namespace === "string" ? flattenNamespaced(item.namespace, name) : name);
  const itemId = typeof item.id === "string" && item.id ? { itemId: item.id } : {};
  switch (item.type) {
    case "function_call":
      return {
        id: str(item.call_id),
        name: namespaced(str(item.name)),
        arguments: str(item.arguments),
        kind: "function",
        ...itemId,
      };
    case "custom_tool_call":
      return {
        id: str(item.call_id),
        name: namespaced(str(item.name)),
        arguments: str(item.input),
        kind: "custom",
        ...itemId,
      };
    case "local_shell_call": {
      const action = (item.action ?? {}) as { command?: unknown };
      const command = Array.isArray(action.command) ? action.command.map(String) : [];
      return {
        id: str(item.call_id) || str(item.id),
        name: LOCAL_SHELL_NAME,
        arguments: localShellArguments({ ...(item.action as object), command }),
        kind: "local_shell",
        ...itemId,
      };
    }
    default:
      return null;
  }
}

/** The texts of a reasoning item: its summary paragraphs, else its raw reasoning text. */
export function reasoningTextOf(item: RawItem): { text: string; summary: boolean } {
  const texts = (list: unknown) =>
    (Array.isArray(list) ? list : []).map((p) => str((p as RawItem | null)?.text)).filter(
      (t) => t !== "",
    );
  const summary = texts(item.summary);
  if (summary.length > 0) return { text: summary.join("\n\n"), summary: true };
  const content = texts(item.content);
  return { text: content.join("\n\n"), summary: content.length === 0 };
}

function reasoningPart(item: RawItem): ReasoningPart | null {
  const { text, summary } = reasoningTextOf(item);
  const encrypted = str(item.encrypted_content);
  if (!text && !encrypted) return null;
  const part: ReasoningPart = { type: "reasoning", text, summary };
  if (encrypted) part.token = { vendor: "openai", value: encrypted };
  if (typeof item.id === "string" && item.id) part.itemId = item.id;
  return part;
}

/** Decodes a non-streamed body. A `failed` body becomes the gateway error it reports. */
export function decodeResponse(
  provider: string,
  body: unknown,
  request: CoreRequest,
): Converted<CoreResponse> {
  if (typeof body !== "object" || body === null || !Array.isArray((body as RawItem).output)) {
    throw new GatewayError(
      "upstream",
      502,
      `Provider "${provider}" answered with a body that is not a Responses response object.`,
    );
  }
  const b = body as RawItem & { output: RawItem[] };
  const error = b.error as { code?: string; message?: string } | null | undefined;
  if (b.status === "failed") throw streamFailure(provider, error?.code, error?.message);

  const restore = toolNameRestorer(request);
  const warnings: Warning[] = [];
  const content: AssistantPart[] = [];
  const refusals: string[] = [];
  let refusal = false;
  b.output.forEach((item, i) => {
    if (item.type === "message") {
      for (const c of (Array.isArray(item.content) ? item.content : []) as RawItem[]) {
        if (c.type === "refusal") {
          refusal = true;
          if (str(c.refusal)) refusals.push(str(c.refusal));
        } else if (str(c.text)) content.push({ type: "text", text: str(c.text) });
      }
      return;
    }
    if (item.type === "reasoning") {
      const part = reasoningPart(item);
      if (part) content.push(part);
      return;
    }
    const call = callOfItem(item, restore);
    if (!call) {
      warnings.push({
        field: `output.${i}`,
        message: `output item "${String(item.type)}" has no counterpart in gatehouse; dropped.`,
      });
      return;
    }
    const expanded = call.kind === "function" && isParallelWrapper(call.name, request)
      ? expandParallelWrapper(call.id, call.arguments)
      : null;
    if (expanded) {
      for (const c of expanded) content.push({ type: "tool_call", ...c, kind: "function" });
    } else content.push({ type: "tool_call", ...call });
  });

  const details = b.incomplete_details as { reason?: string } | null | undefined;
  const toolCall = content.some((p) => p.type === "tool_call");
  const explanation = refusals.join("\n\n");
  return {
    value: {
      id: str(b.id),
      model: str(b.model) || request.model,
      content,
      stopReason: stopReasonOf(str(b.status) || "completed", details?.reason, {
        toolCall,
        refusal,
      }),
      ...(explanation ? { stopDetails: { explanation } } : {}),
      usage: usageFromResponses((b.usage ?? {}) as ResponsesUsageFields),
      created: typeof b.created_at === "number" ? b.created_at : Math.floor(Date.now() / 1000),
    },
    warnings,
  };
}
