/**
 * The model lane: a POST to a model route of the table (chat, Responses, Messages, count_tokens,
 * images; canonical or bare path) runs the steps the Hono app runs for it — request id, the
 * route's key, the JSON body, the route's schema, the handler, and on a failure the error
 * handler's settle-log-render — as plain calls: no router, no middleware chain, a synchronous
 * schema check (zod's async parse costs about twice the sync one). Every other request goes to
 * the Hono app, which also serves these routes' OpenAPI rows; the contract tests, generated from
 * the table, run through the lane. Measured in process (chat JSON passthrough, 32 concurrent):
 * about 100 µs of CPU per request through Hono's chain, 88 µs through the lane.
 * @module
 */
import { safeParseChecked } from "../core/schema_check.ts";
import type { ZodType } from "zod";
import { REQUEST_ID_HEADER, requestIdFrom } from "../core/ids.ts";
import type { GatewayDeps } from "../gateway/exchange.ts";
import type { KeyRecord } from "../store/store.ts";
import { authenticate, keySourcesByRoute } from "./auth.ts";
import { routingPath } from "./bare_path.ts";
import { readJsonBody } from "./body.ts";
import { type RouteFacts, routeRequest, settleModelRefusal } from "./handover.ts";
import { type ModelHandler, searchOf } from "./handlers/llm.ts";
import { logFailure } from "./on_error.ts";
import { errorResponse, toGatewayError, validationError } from "./render_error.ts";
import type { KeySources } from "./security.ts";
import type { RouteSpec } from "./table.ts";

/** One model route as the lane serves it. */
interface Lane {
  spec: RouteSpec;
  path: string;
  handler: ModelHandler;
  sources: KeySources;
  schema: ZodType;
}

/** The JSON body schema of a row (every model route has one). */
function bodySchemaOf(spec: RouteSpec): ZodType {
  const media = spec.route.request?.body?.content["application/json"];
  const schema = media !== undefined && "schema" in media ? media.schema : undefined;
  if (schema === undefined || !("safeParse" in schema)) {
    throw new Error(`model route ${spec.route.path} has no JSON body schema`);
  }
  return schema as ZodType;
}

/** Builds the lane for `handlers` (every model route's). Returns null, synchronously, for a
 * request that is not a POST to one of their paths: the app serves it. */
export function modelLane(
  deps: GatewayDeps,
  handlers: ReadonlyMap<RouteSpec, ModelHandler>,
): (request: Request) => Promise<Response> | null {
  const sources = keySourcesByRoute();
  const lanes = new Map<string, Lane>();
  for (const [spec, handler] of handlers) {
    if (spec.route.method !== "post" || spec.route.security.length === 0) {
      throw new Error(`model route ${spec.route.path} must be a POST that takes a key`);
    }
    const path = spec.route.path;
    lanes.set(path, {
      spec,
      path,
      handler,
      sources: sources.get(spec)!,
      schema: bodySchemaOf(spec),
    });
  }
  const decoder = new TextDecoder();
  const serve = async (request: Request, lane: Lane): Promise<Response> => {
    const receivedAt = performance.now();
    const requestId = requestIdFrom(request.headers.get(REQUEST_ID_HEADER));
    let facts: RouteFacts | null = null;
    let body: Record<string, unknown> | undefined;
    let handedOver = false;
    try {
      const key: KeyRecord = await authenticate(
        deps.store,
        lane.spec,
        lane.sources,
        request.headers,
      );
      facts = { raw: request, key, requestId, bodyBytes: null, receivedAt };
      const read = await readJsonBody(request, deps.config.maxBody, decoder);
      body = read.value;
      facts.bodyBytes = read.text.length;
      facts.bodyText = read.text;
      facts.bodyUtf8 = read.utf8;
      const checked = safeParseChecked(lane.schema, body);
      if (!checked.success) throw validationError(checked.error, "json");
      const handed = routeRequest(lane.path, body, facts);
      handedOver = true;
      return await lane.handler(handed, searchOf(request.url));
    } catch (error) {
      // As the app's error handler: a handed-over request's lifecycle has settled and logged.
      if (!handedOver) {
        if (facts !== null) settleModelRefusal(deps, lane.path, facts, body, error);
        else {
          const { signal } = request;
          logFailure(deps.log, { requestId, method: "POST", path: lane.path, signal }, error);
        }
      }
      const response = errorResponse(toGatewayError(error), lane.spec.envelope);
      response.headers.set(REQUEST_ID_HEADER, requestId);
      return response;
    }
  };
  return function modelLane(request) {
    if (request.method !== "POST") return null;
    const lane = lanes.get(routingPath(request));
    return lane === undefined ? null : serve(request, lane);
  };
}
