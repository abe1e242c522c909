/**
 * The same-protocol fast path: the client's body goes on with only the model id rewritten, and
 * the upstream's bytes come back untouched, tapped for usage. For chat streams the upstream is
 * always asked for usage; clients that did not ask for it never see that final chunk.
 * @module
 */
import type { Wire } from "../core/request.ts";
import type { UpstreamCodec } from "../protocols/codec.ts";
import { isUsageOnlyChunk, USAGE_OBJECT } from "../protocols/openai_chat/mod.ts";
import { SSE_HEADERS } from "../sse/encode_sse.ts";
import { sseTapStep } from "./sse_tap.ts";
import { meteredBody } from "./metered_body.ts";
import { releaseBody, upstreamFetch } from "./upstream_fetch.ts";
import { bodyReaderOf } from "../http1/response.ts";
import { readUpstreamError } from "./upstream_failure.ts";
import type { LlmExchange } from "./exchange.ts";

/** Response headers worth passing back from the provider. */
const KEEP_HEADERS = ["request-id", "x-request-id", "openai-processing-ms", "retry-after"];

const utf8 = new TextDecoder();

/** Forwards `exchange` to an upstream speaking the client's own wire. */
export async function passthrough(
  exchange: LlmExchange,
  codec: UpstreamCodec,
  path: string,
): Promise<Response> {
  const { model, meter, deps } = exchange;
  const body: Record<string, unknown> = { ...exchange.body, model: model.upstreamId };
  const stream = body.stream === true;
  let clientWantsUsage = true;
  if (codec.wire === "openai_chat" && stream) {
    const options = (body.stream_options ?? {}) as Record<string, unknown>;
    clientWantsUsage = options.include_usage === true;
    body.stream_options = { ...options, include_usage: true };
  }
  const response = await upstreamFetch({
    provider: model.provider,
    path: path + forwardedQuery(codec.wire, exchange.search),
    body: JSON.stringify(body),
    clientHeaders: exchange.headers,
    signal: exchange.signal,
    fetch: deps.fetch,
    timeoutMs: deps.config.upstreamTimeoutMs,
  });
  try {
    // Same wire: an upstream error body is already in the client's envelope and goes back as it
    // came. Except 401/403: that is the gateway's provider credential failing, and passing it on
    // would tell the client its own gatehouse key is wrong.
    if (response.status === 401 || response.status === 403) {
      throw await readUpstreamError(response, codec);
    }

    const headers = new Headers();
    for (const name of KEEP_HEADERS) {
      const value = response.headers.get(name);
      if (value) headers.set(name, value);
    }
    const type = response.headers.get("content-type") ?? "";
    const events = stream && type.includes("text/event-stream") ? bodyReaderOf(response) : null;
    if (events) {
      for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
      const tap = sseTapStep({
        observe: (event) => {
          const usage = codec.usageOfEvent(event);
          if (usage) meter.add(usage);
        },
        keep: clientWantsUsage ? undefined : (event) => !isUsageOnlyChunk(event),
        // Every wire names its usage object "usage" (chat's last chunk, Anthropic's
        // message_start and message_delta, Responses' terminal response), and the chat filter
        // only drops events with one: chunks without one need no parsing.
        interesting: USAGE_OBJECT,
      });
      return new Response(meteredBody(events, meter, response.status, tap), {
        status: response.status,
        headers,
      });
    }
    // The bytes go back as they came; only a decoded copy is parsed for usage.
    const bytes = await response.bytes();
    headers.set("content-type", type || "application/json");
    try {
      const usage = codec.usageOfBody(JSON.parse(utf8.decode(bytes)));
      if (usage) meter.add(usage);
    } catch {
      // A non-JSON success body is forwarded as it is; there is no usage to read from it.
    }
    meter.close(response.status);
    return new Response(bytes, { status: response.status, headers });
  } catch (error) {
    releaseBody(response);
    throw error;
  }
}

/** The query string the upstream expects: Anthropic takes `?beta=true` (Claude Code sends it);
 * OpenAI routes take none from us. */
function forwardedQuery(wire: Wire, search: string): string {
  return wire === "anthropic_messages" ? search : "";
}
