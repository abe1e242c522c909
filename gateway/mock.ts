/**
 * Serving a request from the built-in mock provider: its internal-form reply goes out through
 * the client's own encoder, exactly as a translated upstream reply would.
 * @module
 */
import type { Warning } from "../core/convert.ts";
import type { CoreRequest } from "../core/request.ts";
import type { ClientCodec } from "../protocols/codec.ts";
import { mockResponse, mockStream } from "../providers/mock/mock_reply.ts";
import { SSE_HEADERS } from "../sse/encode_sse.ts";
import type { LlmExchange } from "./exchange.ts";
import { meteredBody } from "./metered_body.ts";
import { meterParts } from "./meter_parts.ts";
import { stepStream } from "../core/step.ts";
import { warningHeaders } from "./warnings.ts";
import type { ResponseKeeper } from "./response_chain.ts";

/** Answers `request` from the mock provider in `client`'s wire. */
export async function respondWithMock(
  exchange: LlmExchange,
  client: ClientCodec,
  request: CoreRequest,
  warnings: Warning[],
  keeper?: ResponseKeeper,
): Promise<Response> {
  const { meter, deps, model } = exchange;
  const headers = warningHeaders(warnings, exchange);
  const ctx = { clientModel: model.requested, request };
  const now = Date.now();
  if (request.stream) {
    for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
    const events = mockStream(request, model.requested, now, deps.config.mockDelayMs)
      .pipeThrough(stepStream(meterParts(meter)))
      .pipeThrough(keeper ? keeper.stream() : new TransformStream())
      .pipeThrough(stepStream(client.encodeStream(ctx)));
    return new Response(meteredBody(events, meter, 200), { status: 200, headers });
  }
  const response = mockResponse(request, model.requested, now);
  meter.add(response.usage);
  await keeper?.complete(response);
  const encoded = client.encodeResponse(response, ctx);
  headers.set("content-type", "application/json");
  meter.close(200);
  return new Response(JSON.stringify(encoded.value), { status: 200, headers });
}
