/**
 * The OpenAI Chat Completions wire (`POST /v1/chat/completions`): the client face (OpenAI SDKs,
 * editors) and the upstream face (OpenAI itself, or an OpenAI-compatible server with
 * `compat`: vLLM, Ollama, DeepSeek, xAI, ...).
 * @module
 */
import type { ClientCodec, UpstreamCodec } from "../codec.ts";
import { decodeError } from "./decode_error.ts";
import { decodeRequest } from "./decode_request.ts";
import { decodeResponse } from "./decode_response.ts";
import { decodeStreamStep } from "./decode_stream.ts";
import { chatPath, encodeRequest } from "./encode_request.ts";
import { encodeResponse } from "./encode_response.ts";
import { encodeStreamStep } from "./encode_stream.ts";
import { usageOfBody, usageOfEvent } from "./tap_usage.ts";
import { outputTextOfEvent, outputTextOfRun } from "./output_text.ts";
import { chatStreamEnds } from "./stream_ends.ts";

export { ChatCompletionRequestSchema } from "./schemas.ts";
export type { ChatCompletionRequest } from "./schemas.ts";
export { ChatCompletionResponseSchema } from "./response_schemas.ts";
export { openaiErrorBody, openaiErrorType } from "./encode_error.ts";
export type { OpenAIErrorBody } from "./encode_error.ts";
export { isUsageOnlyChunk, USAGE_OBJECT } from "./tap_usage.ts";

/** The chat wire as a client speaks it to gatehouse. */
export function createClientCodec(): ClientCodec {
  return { wire: "openai_chat", decodeRequest, encodeResponse, encodeStream: encodeStreamStep };
}

/** Options of the upstream face. */
export interface ChatUpstreamOptions {
  /** Provider name as the catalog calls it, for error messages. */
  providerName: string;
  /** An OpenAI-compatible server rather than OpenAI itself. */
  compat?: boolean;
}

/** The chat wire as gatehouse speaks it to a provider. */
export function createUpstreamCodec(options: ChatUpstreamOptions): UpstreamCodec {
  const provider = options.providerName;
  const target = { providerName: provider, compat: options.compat === true };
  return {
    wire: "openai_chat",
    path: chatPath,
    encodeRequest: (request) => encodeRequest(request, target),
    decodeResponse: (body, request) => decodeResponse(body, request, provider),
    decodeStream: (request) => decodeStreamStep(request, provider),
    usageOfEvent,
    outputTextOfEvent,
    outputTextOfRun,
    usageOfBody,
    streamEnds: chatStreamEnds,
    decodeError: (status, body, headers) => decodeError(provider, status, body, headers),
  };
}
