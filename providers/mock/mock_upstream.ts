/**
 * The mock provider as an upstream like any other: an in-process server, reached through the
 * same attempt and delivery path as a real provider. It speaks the Messages and chat wires (and
 * images) by reading requests with the client codecs and writing its internal-form replies with
 * the same codecs' encoders, so no translation is written twice. It keeps no Responses state, so
 * Responses requests reach it over chat, with gatehouse keeping the chain as for any stateless
 * upstream.
 * @module
 */
import { GatewayError } from "../../core/errors.ts";
import type { Wire } from "../../core/request.ts";
import { chainSteps, stepStream } from "../../core/step.ts";
import type { UpstreamFetch, UpstreamInit } from "../../http1/client.ts";
import { messagesPath } from "../../protocols/anthropic_messages/encode_request.ts";
import { chatPath } from "../../protocols/openai_chat/encode_request.ts";
import { imagesPath } from "../../protocols/openai_images/mod.ts";
import { anthropicErrorBody } from "../../protocols/anthropic_messages/encode_error.ts";
import { openaiErrorBody } from "../../protocols/openai_chat/encode_error.ts";
import { clientCodec } from "../../protocols/registry.ts";
import { SSE_HEADERS, utf8Step } from "../../sse/encode_sse.ts";
import { mockImages } from "./mock_image.ts";
import { mockResponse, mockStream } from "./mock_reply.ts";

/** The wire the mock answers a client wire on. */
export function mockWire(clientWire: Wire): Wire {
  return clientWire === "openai_responses" ? "openai_chat" : clientWire;
}

/** The paths the mock is called on: the ones the upstream codecs call. */
const WIRES: Record<string, Wire> = {
  [messagesPath]: "anthropic_messages",
  [chatPath]: "openai_chat",
};

function errorResponse(wire: Wire, error: GatewayError): Response {
  const body = wire === "anthropic_messages" ? anthropicErrorBody(error) : openaiErrorBody(error);
  return Response.json(body, { status: error.status });
}

const decoder = new TextDecoder();

function bodyOf(init: UpstreamInit): Record<string, unknown> {
  // `UpstreamInit` takes a body as text or as bytes; read either.
  const text = init.body instanceof Uint8Array ? decoder.decode(init.body) : init.body;
  const body = typeof text === "string" ? JSON.parse(text) : {};
  return body !== null && typeof body === "object" ? body as Record<string, unknown> : {};
}

function images(body: Record<string, unknown>, now: number): Response {
  const n = typeof body.n === "number" ? body.n : 1;
  const format = body.response_format === "url" ? "url" : "b64_json";
  return Response.json(mockImages(n, format, now));
}

function answer(wire: Wire, body: Record<string, unknown>, delayMs: number, now: number) {
  const codec = clientCodec(wire);
  const request = codec.decodeRequest(body).value;
  const model = typeof body.model === "string" ? body.model : "mock";
  const ctx = { clientModel: model, request };
  if (request.stream) {
    const events = mockStream(request, model, now, delayMs)
      .pipeThrough(stepStream(chainSteps(codec.encodeStream(ctx), utf8Step())));
    return new Response(events, { headers: SSE_HEADERS });
  }
  return Response.json(codec.encodeResponse(mockResponse(request, model, now), ctx).value);
}

/** The mock provider's `fetch`; `delayMs` is the pause before each streamed word. */
export function mockUpstream(delayMs: number): UpstreamFetch {
  return (url, init) => {
    const path = url.replace(/^[a-z]+:\/\/[^/]+/, "").replace(/\?.*$/, "");
    const now = Date.now();
    if (path === imagesPath) return Promise.resolve(images(bodyOf(init), now));
    const wire = WIRES[path];
    if (wire === undefined) {
      return Promise.resolve(Response.json({
        error: { message: `The mock provider does not serve ${path}.`, type: "not_found" },
      }, { status: 404 }));
    }
    try {
      return Promise.resolve(answer(wire, bodyOf(init), delayMs, now));
    } catch (error) {
      if (error instanceof GatewayError) return Promise.resolve(errorResponse(wire, error));
      return Promise.reject(error);
    }
  };
}
