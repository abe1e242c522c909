/**
 * The state of one language-model request as it moves through the gateway.
 * @module
 */
import type { LimitsView } from "./readiness.ts";
import type { UpstreamFetch } from "../http1/client.ts";
import type { Catalog, ResolvedModel } from "../catalog/catalog.ts";
import type { Wire } from "../core/request.ts";
import type { KeyRecord, Store } from "../store/store.ts";
import type { GatewayConfig } from "./config.ts";
import type { Admitter } from "./admission.ts";
import type { Lifecycle } from "./lifecycle.ts";
import type { DeploymentHealth } from "./health.ts";
import type { InFlight } from "./in_flight.ts";
import type { Observer } from "../observe/observer.ts";
import type { MetricsEndpoint } from "../observe/metrics/metrics.ts";

/** Where log lines go. Never given secrets. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** What the gateway is built from. */
export interface GatewayDeps {
  catalog: Catalog;
  store: Store;
  config: GatewayConfig;
  fetch: UpstreamFetch;
  log: Logger;
  /** The admit stage's limits; none (admit everything) when absent. */
  admitter?: Admitter;
  /** Where limits are counted now, for `/readyz` (absent: in this process, always ready). */
  limits?: () => LimitsView;
  /** Each deployment's breaker (routing, `/readyz`, the admin view). */
  health: DeploymentHealth;
  /** The requests running, for a graceful shutdown. */
  inflight: InFlight;
  /** Who watches each request (metrics, traces, the request log); none when absent. */
  observer?: Observer;
  /** What `GET /metrics` serves; absent when metrics are off (it answers 404). */
  metrics?: MetricsEndpoint;
}

/** A model request as a route handler hands it over. */
export interface RouteRequest {
  /** Canonical route path, for the ledger. */
  route: string;
  /** The validated JSON body. */
  body: Record<string, unknown>;
  /** Aborts when the client disconnects. */
  signal: AbortSignal;
  key: KeyRecord;
  /** The request id the client is told (`x-request-id`); a fresh one when absent. */
  requestId?: string;
  /** The JSON body's length when the route read it (the admission's input estimate). */
  bodyBytes?: number | null;
  /** The JSON body's text as the client sent it, when the route kept it: a same-wire upstream
   * gets it with only the model replaced (`forward_body.ts`). */
  bodyText?: string;
  /** The body's bytes, when the route kept them (a large body decoded exactly): the same
   * upstream gets them with the model spliced in. */
  bodyUtf8?: Uint8Array<ArrayBuffer>;
  /** `performance.now()` when the request reached the app (the lifecycle's start otherwise). */
  receivedAt?: number;
  /** The client's request headers (user agent, trace context, forwarded protocol headers). */
  headers?: Headers;
}

/** A language-model request as the route handler hands it over. */
export interface LlmRequest extends RouteRequest {
  clientWire: Wire;
  headers: Headers;
  /** The query string, with its `?`, or "". */
  search: string;
}

/** One language-model request on its way: what was sent, to which model, and its lifecycle. */
export interface LlmExchange extends LlmRequest {
  deps: GatewayDeps;
  model: ResolvedModel;
  life: Lifecycle;
}
