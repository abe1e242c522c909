/**
 * The state of one language-model request as it moves through the gateway.
 * @module
 */
import type { UpstreamFetch } from "../http1/client.ts";
import type { Catalog, ResolvedModel } from "../catalog/catalog.ts";
import type { Wire } from "../core/request.ts";
import type { KeyRecord, Store } from "../store/store.ts";
import type { GatewayConfig } from "./config.ts";
import type { Meter } from "./ledger.ts";

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
}

/** A language-model request as the route handler hands it over. */
export interface LlmRequest {
  clientWire: Wire;
  /** Canonical route path, for the ledger. */
  route: string;
  /** The validated JSON body. */
  body: Record<string, unknown>;
  headers: Headers;
  /** The query string, with its `?`, or "". */
  search: string;
  /** Aborts when the client disconnects. */
  signal: AbortSignal;
  key: KeyRecord;
}

/** One request on its way: what was sent, to which model, and its meter. */
export interface LlmExchange extends LlmRequest {
  deps: GatewayDeps;
  model: ResolvedModel;
  meter: Meter;
}
