/**
 * The attempt stage: calls the upstream that serves the request. One attempt today; the loop
 * that retries on another deployment and falls back to other models belongs here, since this is
 * the only place a request meets a provider.
 * @module
 */
import type { ResolvedModel, ResolvedProvider } from "../catalog/catalog.ts";
import type { UpstreamFetch, UpstreamResponse } from "../http1/client.ts";
import { mockUpstream } from "../providers/mock/mock_upstream.ts";
import type { GatewayDeps } from "./exchange.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { upstreamFetch } from "./upstream_fetch.ts";

/** One upstream call. */
export interface UpstreamCallSpec {
  /** The model whose provider is called. */
  model: ResolvedModel;
  /** Path under the provider root, with its query string if any. */
  path: string;
  body: string;
  /** The client's headers, for the forwarded ones (same-protocol traffic only). */
  clientHeaders?: Headers;
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

/** Calls the upstream for `life`; the answer may be an error status, for the caller to read.
 * Throws a gateway error (502 unreachable, 504 no headers in time) or the client's abort. */
export async function attempt(
  deps: GatewayDeps,
  life: Lifecycle,
  signal: AbortSignal,
  call: UpstreamCallSpec,
): Promise<UpstreamResponse> {
  const provider = call.model.provider;
  life.attempting(call.model);
  const response = await upstreamFetch({
    provider,
    path: call.path,
    body: call.body,
    clientHeaders: call.clientHeaders,
    signal,
    fetch: fetchFor(deps, provider),
    timeoutMs: deps.config.upstreamTimeoutMs,
  });
  if (response.ok) life.delivering();
  return response;
}
