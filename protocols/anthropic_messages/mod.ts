/**
 * The Anthropic Messages wire (`POST /v1/messages`): the client codec Claude Code and the
 * Anthropic SDK talk to, and the upstream codec gatehouse uses to call Anthropic.
 * @module
 */
import type { ClientCodec, UpstreamCodec } from "../codec.ts";
import { decodeAnthropicError } from "./decode_error.ts";
import { decodeRequest } from "./decode_request.ts";
import { decodeResponse } from "./decode_response.ts";
import { decodeStreamStep } from "./decode_stream.ts";
import { encodeRequest, messagesPath } from "./encode_request.ts";
import { encodeResponse } from "./encode_response.ts";
import { encodeStreamStep } from "./encode_stream.ts";
import { usageOfBody, usageOfEvent } from "./tap_usage.ts";
import { outputTextOfEvent, outputTextOfRun } from "./output_text.ts";
import { messagesStreamEnds } from "./stream_ends.ts";

export { anthropicErrorBody, anthropicErrorType } from "./encode_error.ts";
export { DEFAULT_MAX_TOKENS, messagesPath } from "./encode_request.ts";
export { ErrorBodySchema, MessageResponseSchema, MessagesRequestSchema } from "./schemas.ts";
export type { MessagesRequest } from "./schemas.ts";

/** The token-counting endpoint (optional for Claude Code). */
export const countTokensPath = "/v1/messages/count_tokens";

/** The Messages wire as a client speaks it to gatehouse. */
export function createClientCodec(): ClientCodec {
  return {
    wire: "anthropic_messages",
    decodeRequest,
    encodeResponse,
    encodeStream: encodeStreamStep,
  };
}

/** Options of the upstream codec. */
export interface AnthropicUpstreamOptions {
  /** Provider name as the catalog calls it, used in error messages. */
  providerName: string;
  /** Unused by this wire (only OpenAI chat has compatible servers with quirks). */
  compat?: boolean;
  /** max_tokens sent when the request has none (Anthropic requires it); default 8192. */
  defaultMaxTokens?: number;
}

/** The Messages wire as gatehouse speaks it to a provider. */
export function createUpstreamCodec(options: AnthropicUpstreamOptions): UpstreamCodec {
  const provider = options.providerName;
  return {
    wire: "anthropic_messages",
    path: messagesPath,
    encodeRequest: (request) =>
      encodeRequest(request, { defaultMaxTokens: options.defaultMaxTokens }),
    decodeResponse: (body, request) => decodeResponse(body, request, provider),
    decodeStream: (request) => decodeStreamStep(request, provider),
    usageOfEvent,
    outputTextOfEvent,
    outputTextOfRun,
    usageOfBody,
    streamEnds: messagesStreamEnds,
    decodeError: (status, body, headers) => decodeAnthropicError(provider, status, body, headers),
  };
}
