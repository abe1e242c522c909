/**
 * `data:` URLs, the way Chat Completions carries inline images and files.
 * @module
 */

/** A decoded `data:<mediaType>;base64,<data>` URL. */
export interface DataUrl {
  mediaType: string;
  data: string;
}

const DATA_URL = /^data:([^;,]+)?((?:;[^;,]+)*?);base64,(.*)$/s;

/** Parses a base64 `data:` URL; null for anything else (plain URLs, non-base64 data URLs). */
export function parseDataUrl(url: string): DataUrl | null {
  const match = DATA_URL.exec(url);
  if (!match) return null;
  return { mediaType: match[1] ?? "application/octet-stream", data: match[3] ?? "" };
}

/** Builds a base64 `data:` URL. */
export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** Decodes base64 text as UTF-8. */
export function decodeBase64Text(data: string): string {
  const bytes = Uint8Array.from(atob(data), (ch) => ch.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
