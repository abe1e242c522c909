/**
 * The mock provider's images: a valid 1×1 PNG per requested image.
 * @module
 */

/** A 1×1 transparent PNG, base64. */
export const TINY_PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** An OpenAI images response with `n` tiny PNGs. */
export function mockImages(
  n: number,
  responseFormat: "b64_json" | "url",
  now: number,
): { created: number; data: Array<Record<string, string>> } {
  const item: Record<string, string> = responseFormat === "url"
    ? { url: `data:image/png;base64,${TINY_PNG_BASE64}`, revised_prompt: "mock image" }
    : { b64_json: TINY_PNG_BASE64, revised_prompt: "mock image" };
  return { created: Math.floor(now / 1000), data: Array.from({ length: n }, () => ({ ...item })) };
}
