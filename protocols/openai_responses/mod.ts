/**
 * The OpenAI Responses wire (`POST /v1/responses`): the only wire Codex speaks, the
 * `responses.stream()` face of the OpenAI SDK, and the upstream wire of OpenAI models for
 * clients of the other protocols.
 * @module
 */
import type { ClientCodec, UpstreamCodec } from "../codec.ts";
import { decodeError } from "./decode_error.ts";
import { decodeRequest } from "./decode_request.ts";
import { decodeResponse } from "./decode_response.ts";
import { decodeStreamStep } from "./decode_stream.ts";
import { encodeRequest, responsesPath } from "./encode_request.ts";
import { encodeResponse } from "./encode_response.ts";
import { encodeStreamStep } from "./encode_stream.ts";
import { usageOfBody, usageOfEvent } from "./tap_usage.ts";
import { outputTextOfEvent, outputTextOfRun } from "./output_text.ts";
import { responsesStreamEnds } from "./stream_ends.ts";

export { ResponsesRequestSchema, ResponsesResponseSchema } from "./schemas.ts";
export type { ResponsesRequest } from "./schemas.ts";
export { prependHistory, previousResponseId } from "./history.ts";
export { responseIdFor } from "./ids.ts";
export { RESPONSES_EVENT_TYPES, RESPONSES_TERMINAL_EVENTS } from "./event_types.ts";
export { INCLUDE_ENCRYPTED } from "./decode_request.ts";

/** The wire as a client (Codex, the OpenAI SDK) speaks it to gatehouse. */
export function createClientCodec(): ClientCodec {
  return {
    wire: "openai_responses",
    decodeRequest,
    encodeResponse,
    encodeStream: encodeStreamStep,
  };
}

/** The wire as gatehouse speaks it to a provider. `compat` is unused: OpenAI-compatible servers
 * with a Responses endpoint get the same body as OpenAI. */
export function createUpstreamCodec(
  options: { providerName: string; compat?: boolean },
): UpstreamCodec {
  const provider = options.providerName;
  return {
    wire: "openai_responses",
    path: responsesPath,
    encodeRequest,
    decodeResponse: (body, request) => decodeResponse(provider, body, request),
    decodeStream: (request) => decodeStreamStep(provider, request),
    usageOfEvent,
    outputTextOfEvent,
    outputTextOfRun,
    usageOfBody,
    streamEnds: responsesStreamEnds,
    decodeError: (status, body, headers) => decodeError(provider, status, body, headers),
  };
}
