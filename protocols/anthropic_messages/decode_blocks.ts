/**
 * Single Anthropic input blocks (text, image, document, tool_result) → core parts. Each takes
 * the raw block (already known to have its `type`), validates it at its own path and pushes a
 * warning for every field core cannot carry.
 * @module
 */
import type {
  DocumentPart,
  ImagePart,
  MediaSource,
  TextPart,
  ToolResultPart,
} from "../../core/content.ts";
import type { Warning } from "../../core/convert.ts";
import {
  DocumentBlockSchema,
  ImageBlockSchema,
  TextBlockSchema,
  ToolResultBlockSchema,
} from "./schemas.ts";
import { parseAt } from "./validate.ts";

type Source = { type: string } & Record<string, unknown>;

/** Warns about `cache_control` on a block whose core part has no place for it. */
function warnCacheControl(block: { cache_control?: unknown }, path: string, warnings: Warning[]) {
  if (block.cache_control != null) {
    warnings.push({
      field: `${path}.cache_control`,
      message: "cache_control is kept only on text blocks; ignored on this block",
    });
  }
}

function mediaSource(source: Source): MediaSource | null {
  switch (source.type) {
    case "base64":
      return { kind: "base64", mediaType: String(source.media_type), data: String(source.data) };
    case "url":
      return { kind: "url", url: String(source.url) };
    case "file":
      return { kind: "file_id", fileId: String(source.file_id) };
    default:
      return null;
  }
}

/** A text block → TextPart (`cache_control` kept, citations dropped with a warning). */
export function decodeTextBlock(raw: unknown, path: string, warnings: Warning[]): TextPart {
  const block = parseAt(TextBlockSchema, raw, path);
  if (block.citations != null && block.citations.length > 0) {
    warnings.push({
      field: `${path}.citations`,
      message: "citations have no counterpart; ignored",
    });
  }
  const part: TextPart = { type: "text", text: block.text };
  if (block.cache_control != null) part.cacheControl = block.cache_control;
  return part;
}

/** An image block → ImagePart. */
export function decodeImageBlock(raw: unknown, path: string, warnings: Warning[]): ImagePart {
  const block = parseAt(ImageBlockSchema, raw, path);
  warnCacheControl(block, path, warnings);
  // The schema admits only base64, url and file sources, all of which map.
  const source = mediaSource(block.source as Source) as MediaSource;
  return { type: "image", source };
}

/** Flattens a `content` document source (text and image blocks) into plain text. */
function contentSourceText(
  content: string | Array<{ type: string }>,
  path: string,
  warnings: Warning[],
): string {
  if (typeof content === "string") return content;
  const texts: string[] = [];
  content.forEach((block, i) => {
    const text = (block as { text?: unknown }).text;
    if (block.type === "text" && typeof text === "string") texts.push(text);
    else {
      warnings.push({
        field: `${path}.source.content.${i}`,
        message: `a ${block.type} block inside a content document has no counterpart; ignored`,
      });
    }
  });
  return texts.join("\n\n");
}

/** A document block → DocumentPart (`context`, `citations` dropped with warnings). */
export function decodeDocumentBlock(raw: unknown, path: string, warnings: Warning[]): DocumentPart {
  const block = parseAt(DocumentBlockSchema, raw, path);
  warnCacheControl(block, path, warnings);
  if (block.context != null) {
    warnings.push({
      field: `${path}.context`,
      message: "document context has no counterpart; ignored",
    });
  }
  if (block.citations != null) {
    warnings.push({
      field: `${path}.citations`,
      message: "citations have no counterpart; ignored",
    });
  }
  const source = block.source as Source;
  let part: DocumentPart;
  if (source.type === "text") {
    part = {
      type: "document",
      source: {
        kind: "text",
        mediaType: typeof source.media_type === "string" ? source.media_type : "text/plain",
        text: String(source.data),
      },
    };
  } else if (source.type === "content") {
    const content = source.content as string | Array<{ type: string }>;
    part = {
      type: "document",
      source: {
        kind: "text",
        mediaType: "text/plain",
        text: contentSourceText(content, path, warnings),
      },
    };
  } else {
    part = { type: "document", source: mediaSource(source) as MediaSource };
  }
  if (block.title != null) part.title = block.title;
  return part;
}

/** A tool_result block → ToolResultPart. Text, image and document content is kept; other
 * content blocks (search results, tool references) are dropped with a warning. */
export function decodeToolResultBlock(
  raw: unknown,
  path: string,
  warnings: Warning[],
): ToolResultPart {
  const block = parseAt(ToolResultBlockSchema, raw, path);
  warnCacheControl(block, path, warnings);
  const content: ToolResultPart["content"] = [];
  if (typeof block.content === "string") {
    content.push({ type: "text", text: block.content });
  } else if (block.content !== undefined) {
    block.content.forEach((inner, i) => {
      const at = `${path}.content.${i}`;
      switch (inner.type) {
        case "text":
          content.push(decodeTextBlock(inner, at, warnings));
          break;
        case "image":
          content.push(decodeImageBlock(inner, at, warnings));
          break;
        case "document":
          content.push(decodeDocumentBlock(inner, at, warnings));
          break;
        default:
          warnings.push({
            field: at,
            message: `a ${inner.type} block in a tool result has no counterpart; ignored`,
          });
      }
    });
  }
  const part: ToolResultPart = { type: "tool_result", toolCallId: block.tool_use_id, content };
  if (block.is_error != null) part.isError = block.is_error;
  return part;
}
