/**
 * The same-protocol fast path, for every wire (images too): the client's body goes on with only
 * the model id rewritten, and the upstream's bytes come back untouched, tapped for usage and for
 * how the stream ended. A stream that breaks off before its terminal event gets the wire's own
 * terminal error from the gateway. For chat streams the upstream is always asked for usage;
 * clients that did not ask for it never see that final chunk.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import { GatewayError, streamIncomplete } from "../core/errors.ts";
import type { Wire } from "../core/request.ts";
import { bodyReaderOf, type UpstreamResponse } from "../http1/response.ts";
import type { ForwardCodec, TextTest } from "../protocols/codec.ts";
import { isUsageOnlyChunk, USAGE_OBJECT } from "../protocols/openai_chat/mod.ts";
import { SSE_HEADERS } from "../sse/encode_sse.ts";
import type { SseEvent } from "../sse/parse_sse.ts";
import { attempt } from "./attempt.ts";
import type { GatewayDeps } from "./exchange.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { RETRY_HEADERS } from "../protocols/upstream_error.ts";
import { upstreamStream } from "./idle_cutoff.ts";
import { meteredBody } from "./metered_body.ts";
import { runMeter } from "./run_meter.ts";
import { sseTapStep } from "./sse_tap.ts";
import { readCappedText, readUpstreamError, readWholeBody } from "./upstream_failure.ts";
import { emptyStream, firstChunk } from "./first_chunk.ts";
import { served } from "./attempt_failure.ts";
import { releaseBody } from "./upstream_fetch.ts";
import { finishReasonOfEvent, finishReasonsOfBody } from "./finish_reason.ts";
import { type AddedMember, forwardBody } from "./forward_body.ts";

/** Response headers worth passing back from the provider. (`x-request-id` is gatehouse's own.) */
const KEEP_HEADERS = ["openai-processing-ms", ...RETRY_HEADERS];

const utf8 = new TextDecoder();

/** What a forwarded request needs. */
export interface Forwarding {
  deps: GatewayDeps;
  life: Lifecycle;
  model: ResolvedModel;
  body: Record<string, unknown>;
  /** The body's text as the client sent it, when the route kept it. */
  bodyText?: string;
  /** Its bytes, when the route kept them. */
  bodyUtf8?: Uint8Array<ArrayBuffer>;
  signal: AbortSignal;
  /** The client's headers, for the protocol headers forwarded (`anthropic-beta`). */
  headers?: Headers;
  /** The client's query string, with its `?`. */
  search?: string;
}

/** The tap's test per wire: usage objects and the events that end a stream, as two tests (one
 * pattern with both as alternatives scanned every chunk about 40% slower). */
const interestingByWire = new Map<string, TextTest>();

function interestingFor(wire: string, ends: TextTest): TextTest {
  let interesting = interestingByWire.get(wire);
  if (interesting === undefined) {
    interesting = { test: (text) => USAGE_OBJECT.test(text) || ends.test(text) };
    interestingByWire.set(wire, interesting);
  }
  return interesting;
}

const FIRST_ID = /"id"\s*:\s*"([^"]{1,200})"/;

/** Forwards to an upstream speaking the client's own wire. */
export async function passthrough(f: Forwarding, codec: ForwardCodec): Promise<Response> {
  const { model, life, deps } = f;
  const stream = f.body.stream === true && codec.streamEnds !== undefined;
  let clientWantsUsage = true;
  let usage: AddedMember | undefined;
  if (codec.wire === "openai_chat" && stream) {
    const options = (f.body.stream_options ?? {}) as Record<string, unknown>;
    clientWantsUsage = options.include_usage === true;
    // The usage chunk bills the stream: asked for whatever the client said. A client that sent
    // no stream_options (most) keeps its own text, with the option added in front.
    usage = { key: "stream_options", value: { ...options, include_usage: true } };
  }
  const forwarded = forwardBody(f.bodyText, f.body, model.upstreamId, usage, f.bodyUtf8);
  const response = await attempt(deps, life, f.signal, {
    model,
    path: codec.path + forwardedQuery(codec.wire, f.search ?? ""),
    body: forwarded,
    clientHeaders: f.headers,
    codec,
  });
  life.delivered("passthrough");
  try {
    if (!response.ok) return await forwardError(response, codec, life, model.id);
    const headers = life.responseHeaders();
    for (const name of KEEP_HEADERS) {
      const value = response.headers.get(name);
      if (value) headers.set(name, value);
    }
    const type = response.headers.get("content-type") ?? "";
    const sse = stream && type.includes("text/event-stream");
    const events = sse ? bodyReaderOf(response) : null;
    if (sse && events === null) throw emptyStream(model.provider.name);
    if (events) {
      for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
      const provider = model.provider.name;
      const read = upstreamStream(events, life, provider, deps.config.streamIdleTimeoutMs);
      // Nothing has reached the client until the first chunk is in: a failure before it is the
      // attempt's, and may be retried.
      const body = await firstChunk(read, {
        life,
        provider,
        codec,
        headers: response.headers,
      });
      life.upstreamIn();
      const tap = tapFor(codec, life, provider, clientWantsUsage);
      return headers.respond(meteredBody(body, life, response.status, tap), response.status);
    }
    // The bytes go back as they came; only a decoded copy is parsed for usage.
    const bytes = await readWholeBody(
      response,
      model.provider.name,
      f.signal,
      deps.config.streamIdleTimeoutMs,
    );
    life.upstreamIn();
    headers.set("content-type", type || "application/json");
    readBody(bytes, codec, life);
    life.answered(response.status);
    return headers.respond(bytes, response.status);
  } catch (error) {
    releaseBody(response);
    throw error;
  }
}

/** The tap of one stream: usage, the upstream's id, and the stream's end, told to `life`. */
function tapFor(codec: ForwardCodec, life: Lifecycle, provider: string, clientWantsUsage: boolean) {
  const ends = codec.streamEnds!();
  let ended = false;
  let idSeen = false;
  const usageKept = (event: SseEvent) => clientWantsUsage || !isUsageOnlyChunk(event);
  // A budget meters every read's output (run_meter.ts); only the events tested interesting are
  // parsed. The tap forwards nothing after the event that reached the budget (the rest of its
  // upstream read too), and its finish appends the terminal error.
  const meter = life.meter;
  return sseTapStep({
    observe: (event: SseEvent) => {
      const usage = codec.usageOfEvent?.(event);
      if (usage) life.add(usage);
      const reason = finishReasonOfEvent(event.data);
      if (reason !== null) life.finished(reason);
      if (!idSeen) {
        const id = FIRST_ID.exec(event.data)?.[1];
        idSeen = id !== undefined;
        life.upstreamAnswered(id);
      }
      const end = ends.see(event);
      if (end === null) return false;
      if (ended) return true; // chat: [DONE] after the finish_reason chunk that ended it
      ended = true;
      life.streamEnded(
        end === "finish" ? "finish" : new GatewayError(
          "upstream",
          502,
          `Provider "${provider}" ended the stream with an error event.`,
        ),
      );
      return true;
    },
    keep: clientWantsUsage ? undefined : usageKept,
    // Every wire names its usage object "usage" (chat's last chunk, Anthropic's message_start
    // and message_delta, Responses' terminal response); chunks without one and without an
    // ending event need no parsing.
    interesting: interestingFor(String(codec.wire), ends.pattern),
    meter: meter === null ? undefined : runMeter(codec, meter),
    finish: (lastEvents) => {
      if (ended) return null;
      // The stream broke off, or the gateway ended it for silence (the lifecycle knows which).
      life.streamEnded(streamIncomplete(provider, "its terminal event"));
      const error = life.streamError!;
      return ends.failure(error, lastEvents);
    },
  });
}

/** Reads usage, images and the upstream's id off a JSON success body. */
function readBody(bytes: Uint8Array, codec: ForwardCodec, life: Lifecycle): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(bytes));
  } catch {
    return; // A non-JSON success body is forwarded as it is; there is nothing to read from it.
  }
  const usage = codec.usageOfBody(parsed);
  if (usage) life.add(usage);
  if (codec.imagesOfBody) life.addImages(codec.imagesOfBody(parsed));
  for (const reason of finishReasonsOfBody(parsed)) life.finished(reason);
  const id = (parsed as { id?: unknown } | null)?.id;
  life.upstreamAnswered(typeof id === "string" ? id : null);
}

/** An upstream error status. Same wire: the body is already in the client's envelope and goes
 * back as it came (the first 64 KiB of it). Except 401/403: that is the gateway's provider
 * credential failing, and passing it on would tell the client its own key is wrong. */
async function forwardError(
  response: UpstreamResponse,
  codec: ForwardCodec,
  life: Lifecycle,
  model: string,
): Promise<Response> {
  if (response.status === 401 || response.status === 403) {
    throw served(await readUpstreamError(response, codec), model);
  }
  const text = await readCappedText(response).catch(() => "");
  const headers = life.responseHeaders();
  headers.set("content-type", response.headers.get("content-type") ?? "application/json");
  for (const name of RETRY_HEADERS) {
    const value = response.headers.get(name);
    if (value) headers.set(name, value);
  }
  life.answered(response.status);
  return headers.respond(text, response.status);
}

/** The query string the upstream expects: Anthropic takes `?beta=true` (Claude Code sends it);
 * OpenAI routes take none from us. */
function forwardedQuery(wire: Wire | "openai_images", search: string): string {
  return wire === "anthropic_messages" ? search : "";
}
