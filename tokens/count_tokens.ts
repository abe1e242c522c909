/**
 * Local token counting with a real BPE tokenizer (`gpt-tokenizer`, o200k_base: the encoding of
 * the current OpenAI families). Used for `count_tokens` on models whose provider has no counting
 * endpoint, and by the mock provider. Never runs a completion.
 * @module
 */
import { countTokens } from "gpt-tokenizer";
import type { CoreMessage, CoreRequest, CoreTool } from "../core/request.ts";
import type { ToolResultPart, UserPart } from "../core/content.ts";
import { assertNever } from "../core/stream.ts";

/** Tokens added per message for role and separators (OpenAI's published chat accounting). */
const PER_MESSAGE = 3;
/** Tokens for the reply primer. */
const REPLY_PRIMER = 3;
/** An image at high detail costs up to this many tokens on OpenAI models (a 1024×1024 image:
 * 4 tiles × 170 + 85); without the pixel size that is the honest upper estimate. */
const IMAGE_TOKENS = 765;
/** A document without text (a PDF in base64) is estimated per kilobyte of payload. */
const PDF_TOKENS_PER_KB = 40;

function partTokens(part: UserPart | ToolResultPart): number {
  switch (part.type) {
    case "text":
      return countTokens(part.text);
    case "image":
      return IMAGE_TOKENS;
    case "document":
      if (part.source.kind === "text") return countTokens(part.source.text);
      if (part.source.kind === "base64") {
        return Math.ceil((part.source.data.length * 0.75) / 1024) * PDF_TOKENS_PER_KB;
      }
      return IMAGE_TOKENS;
    case "tool_result":
      return part.content.reduce((sum, inner) => sum + partTokens(inner), 0);
    default:
      return assertNever(part, "content part");
  }
}

function messageTokens(message: CoreMessage): number {
  switch (message.role) {
    case "system":
      return message.content.reduce((sum, part) => sum + countTokens(part.text), 0);
    case "user":
    case "tool":
      return message.content.reduce((sum, part) => sum + partTokens(part), 0);
    case "assistant":
      return message.content.reduce((sum, part) => {
        switch (part.type) {
          case "text":
          case "reasoning":
            return sum + countTokens(part.text);
          case "tool_call":
            return sum + countTokens(part.name) + countTokens(part.arguments);
          default:
            return assertNever(part, "assistant part");
        }
      }, 0);
    default:
      return assertNever(message, "message");
  }
}

function toolTokens(tool: CoreTool): number {
  switch (tool.type) {
    case "function":
      return countTokens(
        `${tool.name}\n${tool.description ?? ""}\n${JSON.stringify(tool.parameters)}`,
      );
    case "custom":
      return countTokens(
        `${tool.name}\n${tool.description ?? ""}\n${JSON.stringify(tool.format ?? {})}`,
      );
    case "builtin":
      return countTokens(tool.name);
    default:
      return assertNever(tool, "tool");
  }
}

/** Input tokens of `request` as the model would see them. */
export function countRequestTokens(request: CoreRequest): number {
  let total = REPLY_PRIMER;
  if (request.system.length > 0) {
    total += PER_MESSAGE + request.system.reduce((sum, part) => sum + countTokens(part.text), 0);
  }
  for (const message of request.messages) total += PER_MESSAGE + messageTokens(message);
  for (const tool of request.tools) total += toolTokens(tool);
  return total;
}

/** Tokens of plain text. */
export function countTextTokens(text: string): number {
  return countTokens(text);
}
