/**
 * One attempt: calls the deployment a planned attempt is bound to (`attempt_loop.ts` plans and
 * retries). The only place a request meets a provider. A failure worth another attempt — no
 * connection, a timeout, a retryable status, a context overflow with a fallback — is thrown as
 * {@link AttemptFailed}; any other answer (4xx included) is the caller's to deliver.
 * @module
 */
import type { ResolvedModel, ResolvedProvider } from "../catalog/catalog.ts";
import { GatewayError } from "../core/errors.ts";
import type { UpstreamFetch, UpstreamResponse } from "../http1/client.ts";
import type { ForwardCodec } from "../protocols/codec.ts";
import { mockUpstream } from "../providers/mock/mock_upstream.ts";
import { AttemptFailed } from "./attempt_failure.ts";
import type { GatewayDeps } from "./exchange.ts";
import type { Lifecycle } from "./lifecycle.ts";
import {
  isContextOverflow,
  isRetryableStatus,
  mayBeContextOverflow,
  retryAfterMs,
} from "./retry_policy.ts";
import { RETRY_HEADERS } from "../protocols/upstream_error.ts";
import { readCappedText, upstreamErrorOf } from "./upstream_failure.ts";
import { CONNECT_TIMEOUT, UPSTREAM_TIMEOUT, upstreamFetch } from "./upstream_fetch.ts";

/** One upstream call. */
export interface UpstreamCallSpec {
  /** The model, bound to the deployment to call. */
  model: ResolvedModel;
  /** Path under the provider root, with its query string if any. */
  path: string;
  /** The JSON body: text, or its UTF-8 bytes. */
  body: string | Uint8Array<ArrayBuffer>;
  /** The client's headers, for the forwarded ones (same-protocol traffic only). */
  clientHeaders?: Headers;
  /** Reads the wire's error bodies. */
  codec: Pick<ForwardCodec, "decodeError">;
}

/** The mock provider's in-process server, one per per-word delay. */
const mocks = new Map<number, UpstreamFetch>();

/** How a provider is reached: the mock in process, every other one over the network. */
function fetchFor(deps: GatewayDeps, provider: ResolvedProvider): UpstreamFetch {
  if (provider.kind !== "mock") return deps.fetch;
  const delay = deps.config.mockDelayMs;
  let mock = mocks.get(delay);
  if (mock === undefined) mocks.set(delay, mock = mockUpstream(delay));
  return mock;
}

/** Calls the upstream for `life`. Returns an answer to deliver (success, or a status the client
 * gets as it is); throws {@link AttemptFailed}, the client's abort, or a shutdown's error. */
export async function attempt(
  deps: GatewayDeps,
  life: Lifecycle,
  signal: AbortSignal,
  call: UpstreamCallSpec,
): Promise<UpstreamResponse> {
  const provider = call.model.provider;
  life.attempting(call.model);
  let response: UpstreamResponse;
  try {
    response = await upstreamFetch({
      provider,
      path: call.path,
      body: call.body,
      clientHeaders: call.clientHeaders,
      extraHeaders: life.upstreamHeaders,
      signal,
      fetch: fetchFor(deps, provider),
      timeoutMs: deps.config.upstreamTimeoutMs,
      connectTimeoutMs: deps.config.connectTimeoutMs,
      onStop: (stop) => life.stopAttemptWith(stop),
    });
  } catch (error) {
    if (!(error instanceof GatewayError) || signal.aborted || life.shutdownError) throw error;
    const result = error.code === UPSTREAM_TIMEOUT
      ? "header_timeout"
      : error.code === CONNECT_TIMEOUT
      ? "connect_timeout"
      : "unreachable";
    throw new AttemptFailed(result, 0, error);
  }
  if (!response.ok) {
    const failed = await failureOf(response, call);
    if (failed instanceof AttemptFailed) throw failed;
    response = failed;
  }
  life.delivering(response.status);
  return response;
}

/** An error answer worth another attempt, else the answer to deliver (re-made when its body had
 * to be read to tell). */
async function failureOf(
  response: UpstreamResponse,
  call: UpstreamCallSpec,
): Promise<AttemptFailed | UpstreamResponse> {
  const status = response.status;
  const { model } = call;
  const retryable = isRetryableStatus(status);
  // A refused credential is this deployment's: worth trying another one, or a fallback.
  const refused = (status === 401 || status === 403) &&
    (model.deployments.length > 1 || model.fallbacks.length > 0);
  const overflow = mayBeContextOverflow(status) && model.fallbackOnContextOverflow &&
    model.fallbacks.length > 0;
  if (!retryable && !refused && !overflow) return response;
  const text = await readCappedText(response).catch(() => "");
  const error = () => upstreamErrorOf(status, text, response.headers, call.codec);
  if (refused) return new AttemptFailed("credential_refused", status, error());
  if (retryable) {
    return new AttemptFailed("retryable_status", status, error(), retryAfterMs(response.headers));
  }
  if (isContextOverflow(status, text)) {
    return new AttemptFailed("context_overflow", status, error());
  }
  const headers = new Headers();
  for (const name of ["content-type", ...RETRY_HEADERS]) {
    const value = response.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(text, { status, headers });
}
