/**
 * The stream-chunk check on the hot path: the same rules as `ChatCompletionChunkSchema`, written
 * out by hand. A streamed answer is hundreds of chunks, and running the zod schema over each one
 * was the largest single cost of translating a chat stream. `read_chunk_test.ts` holds the two to
 * the same verdicts.
 * @module
 */
import type { ChatCompletionChunk } from "./response_schemas.ts";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const nullish = (value: unknown, check: (value: unknown) => boolean): boolean =>
  value === undefined || value === null || check(value);

const isString = (value: unknown) => typeof value === "string";
const isNumber = (value: unknown) => typeof value === "number";

/** Every named field of `object` is nullish or passes its check. */
function fields(object: Json, checks: Record<string, (value: unknown) => boolean>): boolean {
  for (const name in checks) {
    if (!nullish(object[name], checks[name]!)) return false;
  }
  return true;
}

const objectWith = (checks: Record<string, (value: unknown) => boolean>) => (value: unknown) =>
  isObject(value) && fields(value, checks);

const arrayOf = (check: (value: unknown) => boolean) => (value: unknown) =>
  Array.isArray(value) && value.every(check);

/** A content part's `type` is required; its `text` may be nullish. */
const isContentPart = (value: unknown) =>
  isObject(value) && isString(value.type) && nullish(value.text, isString);

const isContent = (value: unknown) => isString(value) || arrayOf(isContentPart)(value);

const isToolCall = objectWith({
  index: isNumber,
  id: isString,
  type: isString,
  function: objectWith({ name: isString, arguments: isString }),
  custom: objectWith({ name: isString, input: isString }),
});

const isDelta = objectWith({
  role: isString,
  content: isContent,
  refusal: isString,
  reasoning_content: isString,
  tool_calls: arrayOf(isToolCall),
});

const isChoice = objectWith({ index: isNumber, delta: isDelta, finish_reason: isString });

const isUsage = objectWith({
  prompt_tokens: isNumber,
  completion_tokens: isNumber,
  total_tokens: isNumber,
  prompt_tokens_details: objectWith({ cached_tokens: isNumber }),
  completion_tokens_details: objectWith({ reasoning_tokens: isNumber }),
  prompt_cache_hit_tokens: isNumber,
});

const isChunk = objectWith({
  id: isString,
  created: isNumber,
  model: isString,
  choices: arrayOf(isChoice),
  usage: isUsage,
});

/** `json` as a chunk when it has the chunk's shape, else null. */
export function readChunk(json: unknown): ChatCompletionChunk | null {
  return isChunk(json) ? json as ChatCompletionChunk : null;
}
