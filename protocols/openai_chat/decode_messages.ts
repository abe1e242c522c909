/**
 * Chat `messages` → core system text and conversation.
 * @module
 */
import type {
  AssistantPart,
  DocumentPart,
  TextPart,
  ToolResultPart,
  UserPart,
} from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import { invalidRequest } from "../../core/errors.ts";
import type { CoreMessage } from "../../core/request.ts";
import { decodeBase64Text, parseDataUrl } from "./data_url.ts";
import type { ChatMessage, ChatUserContentPart } from "./schemas.ts";

type TextContent = string | Array<{ text: string; cache_control?: Record<string, unknown> }>;
type AssistantMessage = Extract<ChatMessage, { role: "assistant" }>;

/** The decoded conversation: leading system/developer messages become `system`. */
export interface DecodedMessages {
  system: TextPart[];
  messages: CoreMessage[];
}

function textParts(content: TextContent): TextPart[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content.map((part) =>
    part.cache_control
      ? { type: "text", text: part.text, cacheControl: part.cache_control }
      : { type: "text", text: part.text }
  );
}

function fileDocument(
  file: { file_data?: string; file_id?: string; filename?: string },
  path: string,
): DocumentPart {
  const named = file.filename === undefined ? {} : { filename: file.filename };
  if (file.file_id !== undefined) {
    return { type: "document", source: { kind: "file_id", fileId: file.file_id }, ...named };
  }
  if (file.file_data === undefined) {
    throw invalidRequest(`${path}.file: a file part needs file_data or file_id.`, `${path}.file`);
  }
  const parsed = parseDataUrl(file.file_data);
  // OpenAI documents file_data as a data: URL; bare base64 is read as the PDF it must be.
  const mediaType = parsed?.mediaType ?? "application/pdf";
  const data = parsed?.data ?? file.file_data;
  if (mediaType.startsWith("text/")) {
    return {
      type: "document",
      source: { kind: "text", mediaType, text: decodeBase64Text(data) },
      ...named,
    };
  }
  return { type: "document", source: { kind: "base64", mediaType, data }, ...named };
}

function userPart(part: ChatUserContentPart, path: string, warnings: Warning[]): UserPart {
  switch (part.type) {
    case "text":
      return textParts([part])[0]!;
    case "image_url": {
      const { url, detail } = part.image_url;
      const parsed = parseDataUrl(url);
      const source = parsed
        ? { kind: "base64" as const, mediaType: parsed.mediaType, data: parsed.data }
        : { kind: "url" as const, url };
      if (detail === "auto" || detail === "low" || detail === "high") {
        return { type: "image", source, detail };
      }
      if (detail !== undefined) {
        warnings.push({
          field: `${path}.image_url.detail`,
          message:
            `detail "${detail}" has no counterpart; the image is sent with the default detail.`,
        });
      }
      return { type: "image", source };
    }
    case "input_audio":
      throw invalidRequest(
        `${path}: audio input cannot be translated for this model; send a transcript as text.`,
        path,
      );
    case "file":
      return fileDocument(part.file, path);
  }
}

function assistantParts(message: AssistantMessage, path: string, warnings: Warning[]) {
  const parts: AssistantPart[] = [];
  const reasoning = message.reasoning_content ??
    (typeof message.reasoning === "string" ? message.reasoning : undefined);
  if (message.reasoning != null && typeof message.reasoning !== "string") {
    warnings.push({
      field: `${path}.reasoning`,
      message: "a non-text reasoning value is ignored.",
    });
  }
  if (reasoning) parts.push({ type: "reasoning", text: reasoning });
  const content = message.content;
  if (typeof content === "string") {
    if (content) parts.push({ type: "text", text: content });
  } else if (content) {
    content.forEach((part, j) => {
      if (part.type === "text") {
        parts.push(...textParts([part]));
        return;
      }
      warnings.push({
        field: `${path}.content.${j}`,
        message: "a refusal part has no counterpart; it is carried as assistant text.",
      });
      parts.push({ type: "text", text: part.refusal });
    });
  }
  if (message.refusal) {
    warnings.push({
      field: `${path}.refusal`,
      message: "a refusal has no counterpart in the history; it is carried as assistant text.",
    });
    parts.push({ type: "text", text: message.refusal });
  }
  for (const call of message.tool_calls ?? []) {
    parts.push(
      call.type === "function"
        ? {
          type: "tool_call",
          id: call.id,
          name: call.function.name,
          arguments: call.function.arguments,
          kind: "function",
        }
        : {
          type: "tool_call",
          id: call.id,
          name: call.custom.name,
          arguments: call.custom.input,
          kind: "custom",
        },
    );
  }
  return parts;
}

const IGNORED_MESSAGE_FIELDS = ["name", "audio"] as const;

/** Decodes `messages`. Throws a 400 for content that cannot be carried (audio input, the
 * legacy `function` role and `function_call`) rather than dropping a user's content. */
export function decodeMessages(messages: ChatMessage[]): Converted<DecodedMessages> {
  const warnings: Warning[] = [];
  const system: TextPart[] = [];
  const out: CoreMessage[] = [];
  const callKinds = new Map<string, ToolResultPart["kind"]>();
  let leading = true;

  messages.forEach((message, i) => {
    const path = `messages.${i}`;
    const record = message as Record<string, unknown>;
    if (message.role === "function" || record.function_call != null) {
      const what = message.role === "function" ? "the legacy `function` role" : "`function_call`";
      throw invalidRequest(
        `${path}: ${what} cannot be translated; use \`tool_calls\` and \`tool\` messages.`,
        path,
      );
    }
    for (const field of IGNORED_MESSAGE_FIELDS) {
      if (record[field] != null) {
        warnings.push({ field: `${path}.${field}`, message: "has no counterpart and is ignored." });
      }
    }
    if (message.role === "system" || message.role === "developer") {
      const content = textParts(message.content);
      if (leading) system.push(...content);
      else out.push({ role: "system", content, flavor: message.role });
      return;
    }
    leading = false;
    switch (message.role) {
      case "user": {
        const content: UserPart[] = typeof message.content === "string"
          ? [{ type: "text", text: message.content }]
          : message.content.map((part, j) => userPart(part, `${path}.content.${j}`, warnings));
        out.push({ role: "user", content });
        return;
      }
      case "assistant": {
        const content = assistantParts(message, path, warnings);
        for (const part of content) {
          if (part.type === "tool_call") callKinds.set(part.id, part.kind);
        }
        out.push({ role: "assistant", content });
        return;
      }
      case "tool": {
        const kind = callKinds.get(message.tool_call_id);
        const result: ToolResultPart = {
          type: "tool_result",
          toolCallId: message.tool_call_id,
          content: textParts(message.content),
          ...(kind ? { kind } : {}),
        };
        const previous = out.at(-1);
        if (previous?.role === "tool") previous.content.push(result);
        else out.push({ role: "tool", content: [result] });
        return;
      }
    }
  });
  return { value: { system, messages: out }, warnings };
}
