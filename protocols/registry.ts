/**
 * Every wire's two codecs, by wire name: the one place the gateway learns which wires exist.
 * @module
 */
import type { Wire } from "../core/request.ts";
import type { ClientCodec, UpstreamCodec } from "./codec.ts";
import * as anthropicMessages from "./anthropic_messages/mod.ts";
import * as openaiChat from "./openai_chat/mod.ts";
import * as openaiResponses from "./openai_responses/mod.ts";

/** Options for an upstream codec. */
export interface UpstreamOptions {
  providerName: string;
  /** An OpenAI-compatible server rather than OpenAI itself. */
  compat?: boolean;
  /** `max_tokens` for upstreams that require it when the client sent none. */
  defaultMaxTokens?: number;
}

const clients: Record<Wire, ClientCodec> = {
  anthropic_messages: anthropicMessages.createClientCodec(),
  openai_chat: openaiChat.createClientCodec(),
  openai_responses: openaiResponses.createClientCodec(),
};

/** The client-side codec of `wire` (stateless, shared). */
export function clientCodec(wire: Wire): ClientCodec {
  return clients[wire];
}

/** An upstream-side codec of `wire` for one provider. */
export function upstreamCodec(wire: Wire, options: UpstreamOptions): UpstreamCodec {
  switch (wire) {
    case "anthropic_messages":
      return anthropicMessages.createUpstreamCodec(options);
    case "openai_chat":
      return openaiChat.createUpstreamCodec(options);
    case "openai_responses":
      return openaiResponses.createUpstreamCodec(options);
  }
}
