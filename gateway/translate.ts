/**
 * The translating path: client wire → internal request → upstream wire, and the upstream's
 * answer back through the internal form into the client's wire. Streams stay streams, one
 * transform per step; warnings reach the client in `x-gatehouse-warnings` and the log. The
 * response, message or completion the client gets carries gatehouse's own id.
 * @module
 */
import type { Warning } from "../core/convert.ts";
import { GatewayError } from "../core/errors.ts";
import { type CoreRequest, withoutMessages } from "../core/request.ts";
import type { ClientCodec, UpstreamCodec } from "../protocols/codec.ts";
import { bodyReaderOf } from "../http1/response.ts";
import { readerStream } from "../core/chunk_reader.ts";
import { parseSseStep } from "../sse/parse_sse.ts";
import { chainSteps, stepStream } from "../core/step.ts";
import { SSE_HEADERS } from "../sse/encode_sse.ts";
import { attempt } from "./attempt.ts";
import { upstreamStream } from "./idle_cutoff.ts";
import { emptyStream, firstChunk } from "./first_chunk.ts";
import { served } from "./attempt_failure.ts";
import { meteredBody } from "./metered_body.ts";
import { watchParts } from "./watch_parts.ts";
import { releaseBody } from "./upstream_fetch.ts";
import { readUpstreamError, readWholeBody } from "./upstream_failure.ts";
import type { LlmExchange } from "./exchange.ts";
import { warningHeaders } from "./warnings.ts";
import type { ResponseKeeper } from "./response_chain.ts";

const utf8 = new TextDecoder();

/** The upstream's success body as JSON; a body that is not JSON is the provider's failure. */
function upstreamJson(bytes: Uint8Array, status: number, provider: string): unknown {
  const text = utf8.decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    throw new GatewayError(
      "upstream",
      502,
      `Provider "${provider}" answered HTTP ${status} with a body that is not JSON: ` +
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
  const { deps, model, life } = exchange;
  const provider = model.provider.name;
  const upstreamRequest: CoreRequest = { ...request, model: model.upstreamId };
  const encoded = upstream.encodeRequest(upstreamRequest);
  const response = await attempt(deps, life, exchange.signal, {
    model,
    path: encoded.value.path,
    body: JSON.stringify(encoded.value.body),
    codec: upstream,
  });
  life.delivered("translated");
  // After the attempt: the headers name the model that answered (a fallback's, after one).
  const headers = warningHeaders([...warnings, ...encoded.warnings], exchange);
  try {
    if (!response.ok) throw served(await readUpstreamError(response, upstream), model.id);
    const ctx = { clientModel: model.requested, request };

    if (request.stream) {
      for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
      // parse SSE → decode the upstream wire → watch → encode the client wire, fused into one
      // step per chunk; the Responses keeper (async: it writes the store) needs its own stage.
      const decode = chainSteps(
        chainSteps(parseSseStep(), upstream.decodeStream(upstreamRequest)),
        watchParts(life),
      );
      // What the encoder keeps for the stream's life: the request without its prompt.
      const encode = client.encodeStream({ ...ctx, request: withoutMessages(request) });
      // Taken last: once taken, the body is the stream stage's to cancel, not `releaseBody`'s.
      const taken = bodyReaderOf(response);
      if (!taken) throw emptyStream(provider);
      // A connection that breaks mid-stream, or silence past the idle timeout, ends the body:
      // the decoder then reports the stream incomplete and the encoder writes the client
      // protocol's terminal error.
      const read = upstreamStream(taken, life, provider, deps.config.streamIdleTimeoutMs);
      // Nothing has reached the client until the first chunk is in: a failure before it is the
      // attempt's, and may be retried.
      const body = await firstChunk(read, {
        life,
        provider,
        codec: upstream,
        headers: response.headers,
      });
      life.upstreamIn();
      if (keeper) {
        const events = readerStream(body)
          .pipeThrough(stepStream(decode))
          .pipeThrough(keeper.stream())
          .pipeThrough(stepStream(encode));
        return headers.respond(meteredBody(events, life, 200), 200);
      }
      return headers.respond(meteredBody(body, life, 200, chainSteps(decode, encode)), 200);
    }

    const bytes = await readWholeBody(
      response,
      provider,
      exchange.signal,
      deps.config.streamIdleTimeoutMs,
    );
    life.upstreamIn();
    const decoded = upstream.decodeResponse(
      upstreamJson(bytes, response.status, provider),
      upstreamRequest,
    );
    life.upstreamAnswered(decoded.value.id);
    life.finished(decoded.value.stopReason);
    const answer = { ...decoded.value, id: life.responseId };
    life.add(answer.usage);
    await keeper?.complete(answer);
    const encodedResponse = client.encodeResponse(answer, ctx);
    const late = [...decoded.warnings, ...encodedResponse.warnings];
    if (late.length > 0) {
      deps.log.warn("translation warnings", { warnings: late, route: exchange.route });
    }
    headers.set("content-type", "application/json");
    life.answered(200);
    return headers.respond(JSON.stringify(encodedResponse.value), 200);
  } catch (error) {
    releaseBody(response);
    throw error;
  }
}
