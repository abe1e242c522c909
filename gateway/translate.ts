/**
 * The translating path: client wire → internal request → upstream wire, and the upstream's
 * answer back through the internal form into the client's wire. Streams stay streams, one
 * transform per step; warnings reach the client in `x-gatehouse-warnings` and the log.
 * @module
 */
import type { Warning } from "../core/convert.ts";
import { GatewayError } from "../core/errors.ts";
import type { CoreRequest } from "../core/request.ts";
import type { ClientCodec, UpstreamCodec } from "../protocols/codec.ts";
import type { UpstreamResponse } from "../http1/client.ts";
import { bodyReaderOf } from "../http1/response.ts";
import { readerStream } from "../core/chunk_reader.ts";
import { parseSseStep } from "../sse/parse_sse.ts";
import { chainSteps, stepStream } from "../core/step.ts";
import { SSE_HEADERS } from "../sse/encode_sse.ts";
import { meteredBody } from "./metered_body.ts";
import { meterParts } from "./meter_parts.ts";
import { releaseBody, upstreamFetch } from "./upstream_fetch.ts";
import { readUpstreamError } from "./upstream_failure.ts";
import type { LlmExchange } from "./exchange.ts";
import { warningHeaders } from "./warnings.ts";
import type { ResponseKeeper } from "./response_chain.ts";

/** The upstream's success body as JSON; a body that is not JSON is the provider's failure. */
async function upstreamJson(response: UpstreamResponse, provider: string): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new GatewayError(
      "upstream",
      502,
      `Provider "${provider}" answered HTTP ${response.status} with a body that is not JSON: ` +
        `${text.slice(0, 200)}`,
      { code: "upstream_invalid_response" },
    );
  }
}

/** Sends an already-decoded request through `upstream` and answers in `client`'s wire. */
export async function translate(
  exchange: LlmExchange,
  client: ClientCodec,
  upstream: UpstreamCodec,
  request: CoreRequest,
  warnings: Warning[],
  keeper?: ResponseKeeper,
): Promise<Response> {
  const { deps, model, meter } = exchange;
  const upstreamRequest: CoreRequest = { ...request, model: model.upstreamId };
  const encoded = upstream.encodeRequest(upstreamRequest);
  const allWarnings = [...warnings, ...encoded.warnings];
  const headers = warningHeaders(allWarnings, exchange);
  const response = await upstreamFetch({
    provider: model.provider,
    path: encoded.value.path,
    body: JSON.stringify(encoded.value.body),
    signal: exchange.signal,
    fetch: deps.fetch,
    timeoutMs: deps.config.upstreamTimeoutMs,
  });
  try {
    if (!response.ok) throw await readUpstreamError(response, upstream);
    const ctx = { clientModel: model.requested, request };

    if (request.stream) {
      for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
      // parse SSE → decode the upstream wire → meter → encode the client wire, fused into one
      // step per chunk; the Responses keeper (async: it writes the store) needs its own stage.
      const decode = chainSteps(
        chainSteps(parseSseStep(), upstream.decodeStream(upstreamRequest)),
        meterParts(meter),
      );
      const encode = client.encodeStream(ctx);
      // Taken last: once taken, the body is the stream stage's to cancel, not `releaseBody`'s.
      const body = bodyReaderOf(response);
      if (!body) throw new Error("upstream stream has no body");
      if (keeper) {
        const events = readerStream(body)
          .pipeThrough(stepStream(decode))
          .pipeThrough(keeper.stream())
          .pipeThrough(stepStream(encode));
        return new Response(meteredBody(events, meter, 200), { status: 200, headers });
      }
      return new Response(meteredBody(body, meter, 200, chainSteps(decode, encode)), {
        status: 200,
        headers,
      });
    }

    const decoded = upstream.decodeResponse(
      await upstreamJson(response, model.provider.name),
      upstreamRequest,
    );
    meter.add(decoded.value.usage);
    await keeper?.complete(decoded.value);
    const encodedResponse = client.encodeResponse(decoded.value, ctx);
    const late = [...decoded.warnings, ...encodedResponse.warnings];
    if (late.length > 0) {
      deps.log.warn("translation warnings", { warnings: late, route: exchange.route });
    }
    headers.set("content-type", "application/json");
    meter.close(200);
    return new Response(JSON.stringify(encodedResponse.value), { status: 200, headers });
  } catch (error) {
    releaseBody(response);
    throw error;
  }
}
