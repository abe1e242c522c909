/**
 * Where a model request passes from the routes to the gateway. Each authenticated request to a
 * model route writes exactly one ledger row (README, "Requests and the ledger"): the lifecycle
 * that a handler opens records it and logs the request's failures. A request refused before its
 * handler — body over GATEHOUSE_MAX_BODY, not JSON, against the route's schema — never reaches a
 * handler, so the error handler settles its row here, through the same lifecycle API
 * (`Lifecycle.fail`), which keeps `Lifecycle.settle` the ledger's one writer.
 * @module
 */
import type { Context } from "hono";
import type { GatewayDeps, RouteRequest } from "../gateway/exchange.ts";
import { Lifecycle } from "../gateway/lifecycle.ts";
import type { AppEnv } from "./env.ts";
import type { KeyRecord } from "../store/store.ts";
import { routes, type RouteSpec } from "./table.ts";

/** The model routes: the ones whose requests the ledger counts, one row each. */
export const MODEL_ROUTES: ReadonlySet<RouteSpec> = new Set<RouteSpec>([
  routes.chatCompletions,
  routes.responses,
  routes.messages,
  routes.countTokens,
  routes.imagesGenerations,
]);

/** The request as a model handler gives it to the gateway (`gateway/handle_*.ts`), on canonical
 * `route`. Marks it handed over: from here its lifecycle records the row and logs its failures,
 * so the error handler does neither. */
export async function handOver(c: Context<AppEnv>, route: string): Promise<HandedOver> {
  const body = await c.req.json() as Record<string, unknown>;
  // Last, after anything that could throw: nothing is left between this mark and the
  // handler's `withLifecycle`.
  c.set("handedOver", true);
  return routeRequest(route, body, factsOf(c));
}

/** What the routes learnt of an authenticated model request before its handler. */
export interface RouteFacts {
  raw: Request;
  key: KeyRecord;
  requestId: string;
  bodyBytes: number | null;
  /** The body's text, when the route read it. */
  bodyText?: string;
  /** The body's bytes, when the route kept them (`routes/body.ts`). */
  bodyUtf8?: Uint8Array<ArrayBuffer>;
  receivedAt: number;
}

function factsOf(c: Context<AppEnv>): RouteFacts {
  return {
    raw: c.req.raw,
    key: c.get("key"),
    requestId: c.get("requestId"),
    bodyBytes: c.get("bodyBytes") ?? null,
    bodyText: c.get("bodyText"),
    bodyUtf8: c.get("bodyUtf8"),
    receivedAt: c.get("receivedAt"),
  };
}

/** A model request as the routes hand it over: always with the client's headers. */
export type HandedOver = RouteRequest & { headers: Headers };

/** The request on canonical `route` with `body`, as the gateway takes it. */
export function routeRequest(
  route: string,
  body: Record<string, unknown>,
  facts: RouteFacts,
): HandedOver {
  return {
    route,
    body,
    signal: facts.raw.signal,
    key: facts.key,
    requestId: facts.requestId,
    bodyBytes: facts.bodyBytes,
    bodyText: facts.bodyText,
    bodyUtf8: facts.bodyUtf8,
    receivedAt: facts.receivedAt,
    headers: facts.raw.headers,
  };
}

/** The spec of an authenticated model request that never reached its handler, else null.
 * Requests refused before auth (401, unknown route, 405) have no key to bill: no row. */
function refusedModelRequest(c: Context<AppEnv>): RouteSpec | null {
  if (c.get("handedOver") === true || c.get("key") === undefined) return null;
  const spec = c.get("spec");
  return spec !== undefined && MODEL_ROUTES.has(spec) ? spec : null;
}

/** Whether `spec` is a model route: one whose requests the ledger counts. */
export function isModelRoute(spec: RouteSpec): boolean {
  return MODEL_ROUTES.has(spec);
}

/** Writes the one ledger row of an authenticated model request stopped by `error` before its
 * handler: `rejected` with the error's status (400 bad JSON or schema, 413 too large),
 * `client_disconnect` when the client left while its body was read. The model is the body's
 * `model` string when the body parsed and has one, else "". The lifecycle logs a failure of
 * gatehouse's own code. */
export function settleModelRefusal(
  deps: GatewayDeps,
  route: string,
  facts: RouteFacts,
  body: Record<string, unknown> | undefined,
  error: unknown,
): void {
  const parsed = body ?? {};
  new Lifecycle(deps, routeRequest(route, parsed, facts), parsed.stream === true).fail(error);
}

/** {@link settleModelRefusal} for a request the Hono app refused: false, with nothing done, for
 * any request that is not an authenticated model request stopped before its handler. */
export function settleRefusal(deps: GatewayDeps, c: Context<AppEnv>, error: unknown): boolean {
  const spec = refusedModelRequest(c);
  if (spec === null) return false;
  settleModelRefusal(deps, spec.route.path, factsOf(c), c.get("body"), error);
  return true;
}
