/**
 * The translating path: client wire → internal request → upstream wire, and the upstream's
 * answer back through the internal form into the client's wire. Streams stay streams, one
 * transform per step; warnings reach the client in `x-gatehouse-warnings` and the log.
 * @module
 */
import type { Warning } from "../core/convert.ts";
import type { CoreRequest } from "../core/request.ts";
import type { ClientCodec, UpstreamCodec } from "../protocols/codec.ts";
import { parseSse } from "../sse/parse_sse.ts";
import { SSE_HEADERS } from "../sse/encode_sse.ts";
import { meteredBody } from "./ledger.ts";
import { meterParts } from "./meter_parts.ts";
import { upstreamFetch } from "./upstream_fetch.ts";
import { readUpstreamError } from "./upstream_failure.ts";
import type { LlmExchange } from "./exchange.ts";
import { warningHeaders } from "./warnings.ts";
import type { ResponseKeeper } from "./response_chain.ts";

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
  const controller = new AbortController();
  const response = await upstreamFetch({
    provider: model.provider,
    path: encoded.value.path,
    body: JSON.stringify(encoded.value.body),
    signal: AbortSignal.any([exchange.signal, controller.signal]),
    fetch: deps.fetch,
    timeoutMs: deps.config.upstreamTimeoutMs,
  });
  if (!response.ok) throw await readUpstreamError(response, upstream);
  const ctx = { clientModel: model.requested, request };

  if (request.stream) {
    if (!response.body) throw new Error("upstream stream has no body");
    for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
    const bytes = response.body
      .pipeThrough(parseSse())
      .pipeThrough(upstream.decodeStream(upstreamRequest))
      .pipeThrough(meterParts(meter))
      .pipeThrough(keeper ? keeper.stream() : new TransformStream())
      .pipeThrough(client.encodeStream(ctx));
    return new Response(meteredBody(bytes, meter, 200, controller), { status: 200, headers });
  }

  const decoded = upstream.decodeResponse(await response.json(), upstreamRequest);
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
}
