/**
 * Core user content → chat content parts, for OpenAI itself or an OpenAI-compatible server.
 * @module
 */
import type { DocumentPart, UserPart } from "../../core/content.ts";
import type { Warning } from "../../core/convert.ts";
import { invalidRequest } from "../../core/errors.ts";
import { decodeBase64Text, toDataUrl } from "./data_url.ts";

/** A content part of a chat request message. */
export type ChatPartOut =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: string } }
  | { type: "file"; file: { file_data?: string; file_id?: string; filename?: string } };

/** Who receives the request. */
export interface ChatTarget {
  /** An OpenAI-compatible server rather than OpenAI itself. */
  compat: boolean;
  providerName: string;
}

function documentAsText(doc: DocumentPart, text: string, path: string, warnings: Warning[]) {
  warnings.push({ field: path, message: "a text document is carried as a text part." });
  const name = doc.title ?? doc.filename;
  return { type: "text" as const, text: name ? `${name}\n\n${text}` : text };
}

function encodeDocument(
  doc: DocumentPart,
  path: string,
  target: ChatTarget,
  warnings: Warning[],
): ChatPartOut {
  const source = doc.source;
  if (source.kind === "text") return documentAsText(doc, source.text, path, warnings);
  if (source.kind === "base64" && source.mediaType.startsWith("text/")) {
    return documentAsText(doc, decodeBase64Text(source.data), path, warnings);
  }
  if (target.compat) {
    throw invalidRequest(
      `${path}: provider "${target.providerName}" (an OpenAI-compatible chat server) cannot ` +
        "take PDF or binary documents; send the document's text instead.",
      path,
    );
  }
  switch (source.kind) {
    case "base64":
      return {
        type: "file",
        file: {
          // OpenAI requires a filename with inline file data.
          filename: doc.filename ?? doc.title ?? "document.pdf",
          file_data: toDataUrl(source.mediaType, source.data),
        },
      };
    case "file_id":
      return { type: "file", file: { file_id: source.fileId } };
    case "url":
      throw invalidRequest(
        `${path}: Chat Completions takes documents as inline data or file ids, not URLs; ` +
          "send the document as base64 data.",
        path,
      );
  }
}

/** Encodes one user part. Throws a 400 for content the target cannot carry (image file ids,
 * documents on compat servers, document URLs) instead of dropping the user's content. */
export function encodeUserPart(
  part: UserPart,
  path: string,
  target: ChatTarget,
  warnings: Warning[],
): ChatPartOut {
  switch (part.type) {
    case "text":
      return { type: "text", text: part.text };
    case "image": {
      const source = part.source;
      if (source.kind === "file_id") {
        throw invalidRequest(
          `${path}: Chat Completions cannot take an image by file id; send it as a URL or base64.`,
          path,
        );
      }
      const url = source.kind === "url" ? source.url : toDataUrl(source.mediaType, source.data);
      return {
        type: "image_url",
        image_url: part.detail === undefined ? { url } : { url, detail: part.detail },
      };
    }
    case "document":
      return encodeDocument(part, path, target, warnings);
  }
}

/** A message `content`: a plain string when it is one text part (every compat server takes
 * that), else the part list. */
export function compactContent(parts: ChatPartOut[]): string | ChatPartOut[] {
  const only = parts[0];
  return parts.length === 1 && only?.type === "text" ? only.text : parts;
}
