/**
 * Core messages → Responses `input` items for an OpenAI upstream. System/developer messages stay
 * in place; assistant turns become message, reasoning and call items in order; tool results
 * become the output item matching the call's kind. Reasoning is replayed only with an OpenAI
 * encrypted token (gatehouse is stateless toward OpenAI: `store: false` plus
 * `encrypted_content` is how reasoning continues); other reasoning is dropped with a warning.
 * @module
 */
import type {
  DocumentPart,
  ImagePart,
  ReasoningPart,
  ToolCallPart,
  ToolResultPart,
  UserPart,
} from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreMessage } from "../../core/request.ts";
import { localShellAction } from "./local_shell.ts";
import type { WireInputItem, WireInputPart, WireOutputText } from "./wire.ts";

const EXTENSIONS: Record<string, string> = {
  "application/pdf": "pdf",
  "text/plain": "txt",
  "text/markdown": "md",
  "text/csv": "csv",
};

function imagePart(part: ImagePart): WireInputPart {
  const detail = part.detail ?? "auto";
  const s = part.source;
  if (s.kind === "file_id") return { type: "input_image", file_id: s.fileId, detail };
  const url = s.kind === "url" ? s.url : `data:${s.mediaType};base64,${s.data}`;
  return { type: "input_image", image_url: url, detail };
}

function documentPart(part: DocumentPart, index: number): WireInputPart {
  const s = part.source;
  switch (s.kind) {
    case "text":
      return { type: "input_text", text: part.title ? `${part.title}\n\n${s.text}` : s.text };
    case "url":
      return { type: "input_file", file_url: s.url };
    case "file_id":
      return { type: "input_file", file_id: s.fileId };
    case "base64": {
      const filename = part.filename ?? part.title ??
        `document-${index}.${EXTENSIONS[s.mediaType] ?? "pdf"}`;
      return { type: "input_file", file_data: `data:${s.mediaType};base64,${s.data}`, filename };
    }
  }
}

/** Core user-side parts → input parts. */
export function inputParts(parts: UserPart[]): WireInputPart[] {
  return parts.map((part, i) => {
    if (part.type === "text") return { type: "input_text", text: part.text };
    if (part.type === "image") return imagePart(part);
    return documentPart(part, i);
  });
}

function reasoningItem(
  part: ReasoningPart,
  path: string,
  reasoningModel: boolean,
  w: Warning[],
): WireInputItem | null {
  if (!reasoningModel) {
    w.push({ field: path, message: "this model does not reason; earlier reasoning dropped." });
    return null;
  }
  if (part.token?.vendor !== "openai") {
    w.push({
      field: path,
      message: part.token
        ? `reasoning signed by ${part.token.vendor} cannot be replayed to OpenAI; dropped.`
        : "reasoning without OpenAI encrypted content cannot be replayed to OpenAI; dropped.",
    });
    return null;
  }
  const item: WireInputItem = {
    type: "reasoning",
    summary: part.text ? [{ type: "summary_text", text: part.text }] : [],
    encrypted_content: part.token.value,
  };
  if (part.itemId) item.id = part.itemId;
  return item;
}

function callItem(part: ToolCallPart, shorten: (name: string) => string): WireInputItem {
  const id = part.itemId ? { id: part.itemId } : {};
  switch (part.kind) {
    case "function":
      return {
        type: "function_call",
        call_id: part.id,
        name: shorten(part.name),
        arguments: part.arguments,
        ...id,
      };
    case "custom":
      return {
        type: "custom_tool_call",
        call_id: part.id,
        name: shorten(part.name),
        input: part.arguments,
        ...id,
      };
    case "local_shell":
      return {
        type: "local_shell_call",
        call_id: part.id,
        status: "completed",
        action: localShellAction(part.arguments) ?? { type: "exec", command: [], env: {} },
        ...id,
      };
  }
}

function resultItem(
  result: ToolResultPart,
  kind: ToolCallPart["kind"],
  path: string,
  w: Warning[],
): WireInputItem {
  if (result.isError) {
    w.push({
      field: `${path}.isError`,
      message: "Responses tool outputs have no error flag; the output is sent as is.",
    });
  }
  const onlyText = result.content.every((p) => p.type === "text");
  const text = result.content.map((p) => (p.type === "text" ? p.text : "")).join("\n");
  const output = onlyText ? text : inputParts(result.content);
  switch (kind) {
    case "function":
      return { type: "function_call_output", call_id: result.toolCallId, output };
    case "custom":
      return { type: "custom_tool_call_output", call_id: result.toolCallId, output };
    case "local_shell":
      if (!onlyText) {
        w.push({
          field: `${path}.content`,
          message: "local shell output is text only; non-text parts dropped.",
        });
      }
      return { type: "local_shell_call_output", call_id: result.toolCallId, output: text };
  }
}

/** Encodes the conversation. `shorten` maps tool names to the upstream's length limit;
 * `reasoningModel` false drops reasoning items (a non-reasoning model rejects them). */
export function encodeInput(
  messages: CoreMessage[],
  shorten: (name: string) => string,
  reasoningModel = true,
): Converted<WireInputItem[]> {
  const warnings: Warning[] = [];
  const items: WireInputItem[] = [];
  const kinds = new Map<string, ToolCallPart["kind"]>();
  let cacheControl = false;

  messages.forEach((message, m) => {
    const path = `messages.${m}`;
    switch (message.role) {
      case "system":
      case "user": {
        cacheControl ||= message.content.some((p) => p.type === "text" && p.cacheControl);
        const role = message.role === "user" ? "user" : message.flavor ?? "system";
        items.push({ type: "message", role, content: inputParts(message.content) });
        return;
      }
      case "assistant": {
        let text: WireOutputText[] | null = null;
        message.content.forEach((part, p) => {
          if (part.type === "text") {
            cacheControl ||= part.cacheControl !== undefined;
            if (!text) {
              text = [];
              items.push({ type: "message", role: "assistant", content: text });
            }
            text.push({ type: "output_text", text: part.text, annotations: [] });
            return;
          }
          text = null;
          if (part.type === "reasoning") {
            const item = reasoningItem(part, `${path}.content.${p}`, reasoningModel, warnings);
            if (item) items.push(item);
            return;
          }
          kinds.set(part.id, part.kind);
          items.push(callItem(part, shorten));
        });
        return;
      }
      case "tool":
        message.content.forEach((result, r) => {
          const kind = result.kind ?? kinds.get(result.toolCallId) ?? "function";
          items.push(resultItem(result, kind, `${path}.content.${r}`, warnings));
        });
        return;
    }
  });
  if (cacheControl) {
    warnings.push({
      field: "cache_control",
      message: "prompt-cache markers have no OpenAI counterpart (OpenAI caches automatically).",
    });
  }
  return { value: items, warnings };
}
