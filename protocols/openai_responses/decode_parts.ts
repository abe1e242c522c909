/**
 * Responses content parts (`input_text`, `input_image`, `input_file`, replayed `output_text`
 * and `refusal`) → core user parts. Shared by message items and tool outputs.
 * @module
 */
import type { DocumentPart, ImagePart, MediaSource, UserPart } from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import { invalidRequest } from "../../core/errors.ts";
import {
  InputFilePartSchema,
  InputImagePartSchema,
  InputTextPartSchema,
  OutputTextPartSchema,
  parseAt,
  RefusalPartSchema,
} from "./schemas.ts";

/** A `data:` URL split into media type and base64 payload; null for anything else. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | null {
  const match = /^data:([^;,]*)((?:;[^;,]*)*);base64,(.*)$/s.exec(url);
  if (!match) return null;
  return { mediaType: match[1] || "application/octet-stream", data: match[3] ?? "" };
}

const EXTENSION_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  json: "application/json",
  html: "text/html",
};

function mediaTypeOfFilename(filename: string | null | undefined): string {
  const ext = filename?.split(".").pop()?.toLowerCase() ?? "";
  return EXTENSION_TYPES[ext] ?? "application/pdf";
}

function decodeImage(part: unknown, path: string, warnings: Warning[]): ImagePart {
  const p = parseAt(InputImagePartSchema, part, path);
  let source: MediaSource;
  if (p.image_url) {
    const data = parseDataUrl(p.image_url);
    source = data
      ? { kind: "base64", mediaType: data.mediaType, data: data.data }
      : { kind: "url", url: p.image_url };
  } else if (p.file_id) {
    source = { kind: "file_id", fileId: p.file_id };
  } else {
    throw invalidRequest(`${path}: input_image needs image_url or file_id.`, path);
  }
  const image: ImagePart = { type: "image", source };
  if (p.detail === "auto" || p.detail === "low" || p.detail === "high") image.detail = p.detail;
  else if (p.detail) {
    warnings.push({
      field: `${path}.detail`,
      message: `detail "${p.detail}" has no portable counterpart; the default resolution applies.`,
    });
  }
  return image;
}

function decodeFile(part: unknown, path: string): DocumentPart {
  const p = parseAt(InputFilePartSchema, part, path);
  let source: MediaSource;
  if (p.file_data) {
    const data = parseDataUrl(p.file_data);
    source = data
      ? { kind: "base64", mediaType: data.mediaType, data: data.data }
      : { kind: "base64", mediaType: mediaTypeOfFilename(p.filename), data: p.file_data };
  } else if (p.file_url) {
    source = { kind: "url", url: p.file_url };
  } else if (p.file_id) {
    source = { kind: "file_id", fileId: p.file_id };
  } else {
    throw invalidRequest(`${path}: input_file needs file_data, file_url or file_id.`, path);
  }
  const doc: DocumentPart = { type: "document", source };
  if (p.filename) doc.filename = p.filename;
  return doc;
}

/** Decodes one content part; null (with a warning) for a type core cannot carry. */
export function decodePart(part: unknown, path: string, warnings: Warning[]): UserPart | null {
  const type = (part as { type?: unknown }).type;
  switch (type) {
    case "input_text":
      return { type: "text", text: parseAt(InputTextPartSchema, part, path).text };
    case "output_text":
      return { type: "text", text: parseAt(OutputTextPartSchema, part, path).text };
    case "refusal":
      return { type: "text", text: parseAt(RefusalPartSchema, part, path).refusal };
    case "input_image":
      return decodeImage(part, path, warnings);
    case "input_file":
      return decodeFile(part, path);
    case "input_audio":
      throw invalidRequest(
        `${path}: input_audio cannot be translated to the other protocols; send text instead.`,
        path,
      );
    default:
      warnings.push({
        field: `${path}.type`,
        message: `content part type "${String(type)}" has no counterpart in gatehouse; dropped.`,
      });
      return null;
  }
}

/** Decodes a content array or string into user parts. */
export function decodeParts(content: string | unknown[], path: string): Converted<UserPart[]> {
  if (typeof content === "string") {
    return { value: [{ type: "text", text: content }], warnings: [] };
  }
  const warnings: Warning[] = [];
  const value: UserPart[] = [];
  content.forEach((part, i) => {
    const decoded = decodePart(part, `${path}.${i}`, warnings);
    if (decoded) value.push(decoded);
  });
  return { value, warnings };
}
