/**
 * Core parts → Anthropic blocks for an upstream request. Every part Anthropic would reject
 * (empty text, files of another vendor, unsigned thinking) is dropped with a warning.
 * @module
 */
import type {
  DocumentPart,
  ImagePart,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from "../../core/content.ts";
import type { Warning } from "../../core/convert.ts";
import { shortenToolName } from "../tool_names.ts";
import { toolInputOf } from "./tool_input.ts";
import type {
  WireDocument,
  WireImage,
  WireRedactedThinking,
  WireText,
  WireThinking,
  WireToolResult,
  WireToolUse,
} from "./wire.ts";

/** Anthropic's tool-use id pattern. */
const TOOL_ID = /^[a-zA-Z0-9_-]+$/;

/** Maps tool call ids to ids Anthropic accepts: unchanged when valid, else every other
 * character replaced by `_` (deterministic, so a call and its result still match). Missing ids
 * are synthesized in order: the n-th call without an id pairs with the n-th result without
 * one. One mapper per request. */
export function toolIdMapper(): { call(id: string): string; result(id: string): string } {
  let calls = 0;
  let results = 0;
  const clean = (id: string) => TOOL_ID.test(id) ? id : id.replace(/[^a-zA-Z0-9_-]/g, "_");
  return {
    call: (id) => id === "" ? `toolu_gatehouse_${calls++}` : clean(id),
    result: (id) => id === "" ? `toolu_gatehouse_${results++}` : clean(id),
  };
}

/** A text part → text block (cache_control kept); null for empty text, which Anthropic rejects. */
export function textBlock(part: TextPart, path: string, warnings: Warning[]): WireText | null {
  if (part.text === "") {
    warnings.push({ field: path, message: "empty text blocks are rejected by Anthropic; dropped" });
    return null;
  }
  const block: WireText = { type: "text", text: part.text };
  if (part.cacheControl !== undefined) block.cache_control = part.cacheControl;
  return block;
}

/** An image part → image block; null for a file id (it belongs to another vendor's store). */
export function imageBlock(part: ImagePart, path: string, warnings: Warning[]): WireImage | null {
  if (part.detail !== undefined) {
    warnings.push({ field: `${path}.detail`, message: "image detail has no counterpart; ignored" });
  }
  const source = part.source;
  switch (source.kind) {
    case "base64":
      return {
        type: "image",
        source: { type: "base64", media_type: source.mediaType, data: source.data },
      };
    case "url":
      return { type: "image", source: { type: "url", url: source.url } };
    case "file_id":
      warnings.push({
        field: `${path}.source`,
        message: "a file id cannot be resolved by Anthropic; image dropped",
      });
      return null;
  }
}

function decodeBase64Text(data: string): string {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** A document part → document block. Anthropic takes PDF (base64 or URL) and plain text. */
export function documentBlock(
  part: DocumentPart,
  path: string,
  warnings: Warning[],
): WireDocument | null {
  const source = part.source;
  let block: WireDocument;
  switch (source.kind) {
    case "base64":
      if (source.mediaType === "text/plain") {
        block = {
          type: "document",
          source: { type: "text", media_type: "text/plain", data: decodeBase64Text(source.data) },
        };
      } else if (source.mediaType === "application/pdf") {
        block = {
          type: "document",
          source: { type: "base64", media_type: source.mediaType, data: source.data },
        };
      } else {
        warnings.push({
          field: `${path}.source`,
          message: `Anthropic documents are PDF or plain text, not ${source.mediaType}; dropped`,
        });
        return null;
      }
      break;
    case "url":
      block = { type: "document", source: { type: "url", url: source.url } };
      break;
    case "text":
      if (source.mediaType !== "text/plain") {
        warnings.push({
          field: `${path}.source.mediaType`,
          message: `sent as text/plain (Anthropic's only text type), not ${source.mediaType}`,
        });
      }
      block = {
        type: "document",
        source: { type: "text", media_type: "text/plain", data: source.text },
      };
      break;
    case "file_id":
      warnings.push({
        field: `${path}.source`,
        message: "a file id cannot be resolved by Anthropic; document dropped",
      });
      return null;
  }
  const title = part.title ?? part.filename;
  if (title !== undefined) block.title = title;
  if (part.title !== undefined && part.filename !== undefined) {
    warnings.push({ field: `${path}.filename`, message: "the title is sent; filename ignored" });
  }
  return block;
}

/** A reasoning part → thinking or redacted_thinking, only with an Anthropic signature. */
export function reasoningBlock(
  part: ReasoningPart,
  path: string,
  warnings: Warning[],
): WireThinking | WireRedactedThinking | null {
  if (part.token?.vendor !== "anthropic") {
    warnings.push({
      field: path,
      message: part.token === undefined
        ? "reasoning without an Anthropic signature would be rejected by Anthropic; dropped"
        : `a reasoning token issued by ${part.token.vendor} cannot be sent to Anthropic; ` +
          "reasoning dropped",
    });
    return null;
  }
  if (part.redacted) return { type: "redacted_thinking", data: part.token.value };
  return { type: "thinking", thinking: part.text, signature: part.token.value };
}

/** A tool call → tool_use with the mapped `id` (name shortened to Anthropic's limit, custom input wrapped). */
export function toolUseBlock(
  part: ToolCallPart,
  id: string,
  path: string,
  warnings: Warning[],
): WireToolUse {
  const { input, problem } = toolInputOf(part);
  if (problem !== undefined) warnings.push({ field: `${path}.arguments`, message: problem });
  return {
    type: "tool_use",
    id,
    name: shortenToolName(part.name),
    input,
  };
}

/** A tool result → tool_result for the mapped `id`, with its text, image and document content. */
export function toolResultBlock(
  part: ToolResultPart,
  id: string,
  path: string,
  warnings: Warning[],
): WireToolResult {
  const content: NonNullable<WireToolResult["content"]> = [];
  part.content.forEach((inner, i) => {
    const at = `${path}.content.${i}`;
    const block = inner.type === "text"
      ? textBlock(inner, at, warnings)
      : inner.type === "image"
      ? imageBlock(inner, at, warnings)
      : documentBlock(inner, at, warnings);
    if (block !== null) content.push(block);
  });
  const block: WireToolResult = {
    type: "tool_result",
    tool_use_id: id,
  };
  if (content.length > 0) block.content = content;
  if (part.isError !== undefined) block.is_error = part.isError;
  return block;
}
