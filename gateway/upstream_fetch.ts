/**
 * Sends one request to a provider: its root, its own credential in place of the client's key,
 * the protocol headers that matter, and the client's abort signal so a disconnect stops it.
 * @module
 */
import type { ResolvedProvider } from "../catalog/catalog.ts";
import { GatewayError } from "../core/errors.ts";
import { deadline } from "./deadlines.ts";
import { ConnectTimeoutError, type UpstreamFetch, type UpstreamResponse } from "../http1/client.ts";

/** The Anthropic API version sent when the client named none. */
export const DEFAULT_ANTHROPIC_VERSION = "2023-06-01";

/** Client headers forwarded to an Anthropic upstream. */
const ANTHROPIC_FORWARD = ["anthropic-version", "anthropic-beta"];
/** Client headers forwarded to an OpenAI upstream. */
const OPENAI_FORWARD = ["openai-beta"];

/** What to send. */
export interface UpstreamRequest {
  provider: ResolvedProvider;
  /** Path under the provider root, with its query string if any. */
  path: string;
  /** The JSON body: text, or its UTF-8 bytes. */
  body: string | Uint8Array<ArrayBuffer>;
  /** The client's headers, for the forwarded ones (same-protocol traffic only). */
  clientHeaders?: Headers;
  /** Headers added last (the trace context of the attempt), when any. */
  extraHeaders?: Record<string, string>;
  signal: AbortSignal;
  fetch: UpstreamFetch;
  /** The wait for response headers, ms. */
  timeoutMs: number;
  /** The wait for a new connection (TCP and TLS), ms; the pooled client only. */
  connectTimeoutMs?: number;
  /** Receives the function that stops this call (with the error it then fails with): a
   * shutdown ends calls still waiting. */
  onStop?: (stop: (error: GatewayError) => void) => void;
}

/** The code of a call that got no response headers in time. */
export const UPSTREAM_TIMEOUT = "upstream_timeout";
/** The code of a call that could not open a connection in time. */
export const CONNECT_TIMEOUT = "upstream_connect_timeout";

/** Builds the upstream headers (lowercase names): the provider's credential, never the
 * client's key. A plain record, since the request path writes it once and never reads it back. */
export function upstreamHeaders(
  provider: ResolvedProvider,
  clientHeaders?: Headers,
): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "gatehouse",
  };
  const anthropic = provider.kind === "anthropic";
  for (const name of anthropic ? ANTHROPIC_FORWARD : OPENAI_FORWARD) {
    const value = clientHeaders?.get(name);
    if (value) headers[name] = value;
  }
  if (anthropic) {
    headers["anthropic-version"] ??= DEFAULT_ANTHROPIC_VERSION;
    if (provider.apiKey) headers["x-api-key"] = provider.apiKey;
  } else if (provider.apiKey) {
    headers.authorization = `Bearer ${provider.apiKey}`;
  }
  for (const [name, value] of Object.entries(provider.headers)) headers[name.toLowerCase()] = value;
  return headers;
}

/** Fetches from the provider. A connection failure or timeout becomes a 502/504 naming the
 * provider; an abort by the client propagates as the fetch's own AbortError. */
export async function upstreamFetch(request: UpstreamRequest): Promise<UpstreamResponse> {
  const { provider } = request;
  // One controller for both causes. The timeout covers the wait for response headers only (a
  // long stream must not be cut); a client disconnect aborts the request and its body.
  const controller = new AbortController();
  let timedOut = false;
  const cancelDeadline = deadline(request.timeoutMs, () => {
    timedOut = true;
    controller.abort();
  });
  let stoppedBy: GatewayError | null = null;
  request.onStop?.((error) => {
    stoppedBy = error;
    controller.abort(error);
  });
  // The closures here outlive the call (a stream's whole life): they must not capture
  // `request`, whose body is the prompt.
  const clientSignal = request.signal;
  const onAbort = () => controller.abort(clientSignal.reason);
  if (clientSignal.aborted) onAbort();
  else clientSignal.addEventListener("abort", onAbort, { once: true });
  const signal = controller.signal;
  const headers = upstreamHeaders(provider, request.clientHeaders);
  if (request.extraHeaders !== undefined) Object.assign(headers, request.extraHeaders);
  try {
    return await request.fetch(`${provider.baseUrl}${request.path}`, {
      method: "POST",
      headers,
      body: request.body,
      signal,
      connectTimeoutMs: request.connectTimeoutMs,
    });
  } catch (error) {
    if (request.signal.aborted) throw error;
    if (stoppedBy !== null) throw stoppedBy;
    if (timedOut) {
      throw new GatewayError(
        "timeout",
        504,
        `Provider "${provider.name}" did not answer within ${request.timeoutMs} ms (GATEHOUSE_UPSTREAM_TIMEOUT_MS).`,
        { code: UPSTREAM_TIMEOUT },
      );
    }
    if (error instanceof ConnectTimeoutError) {
      throw new GatewayError(
        "timeout",
        504,
        `Could not connect to provider "${provider.name}" at ${provider.baseUrl} within ` +
          `${request.connectTimeoutMs} ms (GATEHOUSE_CONNECT_TIMEOUT_MS). Check that it is up.`,
        { code: CONNECT_TIMEOUT, cause: error },
      );
    }
    throw new GatewayError(
      "upstream",
      502,
      `Could not reach provider "${provider.name}" at ${provider.baseUrl}: ${
        (error as Error).message
      }. ` +
        "Check the provider's base URL and that it is up.",
      { code: "upstream_unreachable", cause: error },
    );
  } finally {
    cancelDeadline();
  }
}

/** Cancels an upstream body nobody took over (an error came first), so its connection closes
 * instead of staying open with the provider still generating. A body already read or locked by
 * a reader is left to its reader. */
export function releaseBody(response: UpstreamResponse): void {
  if (response.bodyUsed || !response.body || response.body.locked) return;
  response.body.cancel().catch(() => {});
}
