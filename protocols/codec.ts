/**
 * The two faces of a wire format. Each folder under `protocols/` exports one `ClientCodec`
 * (the wire as a client speaks it to gatehouse) and one `UpstreamCodec` (the wire as gatehouse
 * speaks it to a provider). The gateway composes any client codec with any upstream codec, so
 * code grows as protocols + providers.
 * @module
 */
import type { RunText } from "./output_scan.ts";
import type { Converted } from "../core/convert.ts";
import type { CoreRequest, Wire } from "../core/request.ts";
import type { CoreResponse, Usage } from "../core/response.ts";
import type { StreamPart } from "../core/stream.ts";
import type { GatewayError } from "../core/errors.ts";
import type { HeaderReader } from "../core/header_reader.ts";
import type { SseEvent } from "../sse/parse_sse.ts";
import type { Step } from "../core/step.ts";

/** What an encoder needs to know about the exchange. */
export interface EncodeContext {
  /** The model id the client asked for (shown back to it, never the upstream id). */
  clientModel: string;
  /** The client's original request, decoded. */
  request: CoreRequest;
}

/** The wire as spoken by a client to gatehouse. */
export interface ClientCodec {
  wire: Wire;
  /** Parsed JSON body → internal request. Throws `GatewayError` (400) naming the field path on
   * a schema violation. */
  decodeRequest(body: unknown): Converted<CoreRequest>;
  /** Internal response → response body. */
  encodeResponse(response: CoreResponse, ctx: EncodeContext): Converted<unknown>;
  /** Stream parts → SSE text, as a step (`core/step.ts`). Always ends with the protocol's
   * terminal event, also after an `error` part. */
  encodeStream(ctx: EncodeContext): Step<StreamPart, string>;
}

/** An HTTP request to send upstream, relative to the provider's root. */
export interface UpstreamCall {
  /** Path under the provider root, starting with `/v1/`. */
  path: string;
  body: unknown;
}

/** Something that says whether a text holds what it looks for (a non-global `RegExp` is one). */
export interface TextTest {
  test(text: string): boolean;
}

/** How a passthrough sees a stream of one wire end (one per stream: it may keep state). */
export interface StreamEnds {
  /** Matches the text of every event {@link see} needs (a non-global pattern, or a test built
   * of several: one regular expression with alternatives scans text several times slower). */
  readonly pattern: TextTest;
  /** Reads an event: `finish` for the wire's clean end, `error` for an error event that ends
   * the stream, null for any other event. */
  see(event: SseEvent): "finish" | "error" | null;
  /** The wire's terminal error event for a stream that broke off before its end; `lastEvents`
   * is the text of the last complete events the client was sent. */
  failure(error: GatewayError, lastEvents: string): string;
}

/** What the same-protocol forwarding path needs of a wire: where it lives on a provider, how
 * to read usage off its bodies and streams, how its streams end, and its error body. Every
 * upstream codec is one; so is the images wire, which has nothing to translate. */
export interface ForwardCodec {
  wire: Wire | "openai_images";
  path: string;
  usageOfBody(body: unknown): Usage | null;
  /** Images a body reports generated (images wire). */
  imagesOfBody?(body: unknown): number;
  /** Streamed wires: usage carried by one event. */
  usageOfEvent?(event: SseEvent): Partial<Usage> | null;
  /** Streamed wires: the generated text one event carries, for metering a stream against a
   * budget ("" for events that carry none). */
  outputTextOfEvent?(event: SseEvent): string;
  /** Streamed wires: the generated text of a run of complete raw events, scanned without
   * parsing them, appended to `into`; false when the scan cannot read the run exactly (the
   * metering then parses its events one by one). */
  outputTextOfRun?(run: string, into: RunText): boolean;
  /** Streamed wires: a fresh watcher of how a stream ends. */
  streamEnds?(): StreamEnds;
  decodeError(status: number, body: unknown, headers: HeaderReader): GatewayError;
}

/** The wire as gatehouse speaks it to a provider. */
export interface UpstreamCodec {
  wire: Wire;
  /** The wire's path on a provider, under its root (`/v1/messages`). */
  path: string;
  /** Internal request (with `model` already the upstream id) → upstream call. */
  encodeRequest(request: CoreRequest): Converted<UpstreamCall>;
  /** Upstream JSON body → internal response. `request` is the encoded-from request (for
   * restoring shortened tool names and similar per-request mappings). */
  decodeResponse(body: unknown, request: CoreRequest): Converted<CoreResponse>;
  /** Upstream SSE events → stream parts. Emits `error` for the wire's error events and a
   * `finish` at the end (or `error` when the upstream stream ends without its terminal event). */
  decodeStream(request: CoreRequest): Step<SseEvent, StreamPart>;
  /** Usage carried by one upstream SSE event, for the passthrough tap (cheap: most events
   * return null without parsing). Later events' fields override earlier ones. */
  usageOfEvent(event: SseEvent): Partial<Usage> | null;
  /** The generated text one upstream SSE event carries, for budget metering. */
  outputTextOfEvent(event: SseEvent): string;
  /** The generated text of a run of complete raw events, scanned (see {@link ForwardCodec}). */
  outputTextOfRun(run: string, into: RunText): boolean;
  /** Usage of a non-streamed upstream body, for the passthrough tap. */
  usageOfBody(body: unknown): Usage | null;
  /** A fresh watcher of how a passthrough stream of this wire ends. */
  streamEnds(): StreamEnds;
  /** An upstream HTTP error (status and parsed or raw body) → a gateway error for the client. */
  decodeError(status: number, body: unknown, headers: HeaderReader): GatewayError;
}
