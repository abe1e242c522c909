/**
 * Builds the Hono app from the route table and the gateway. Tests import it; `main.ts` serves it.
 * @module
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { GatewayDeps } from "./gateway/exchange.ts";
import { apiKeyAuth } from "./routes/auth.ts";
import { routingPath } from "./routes/bare_path.ts";
import { jsonBody } from "./routes/body.ts";
import type { AppEnv } from "./routes/env.ts";
import { routeGuard } from "./routes/guard.ts";
import { requestId } from "./routes/request_id.ts";
import { errorHandler } from "./routes/on_error.ts";
import { validationError } from "./routes/render_error.ts";
import { routes } from "./routes/table.ts";
import { honoModelHandler, modelHandlers } from "./routes/handlers/llm.ts";
import { modelLane } from "./routes/model_lane.ts";
import { getModelHandler, listModelsHandler } from "./routes/handlers/models.ts";
import { rootHandler } from "./routes/handlers/root.ts";
import { usageHandler } from "./routes/handlers/usage.ts";
import { registerAdminRoutes } from "./routes/handlers/admin_register.ts";
import { metricsHandler } from "./routes/handlers/metrics.ts";
import { openApiDocument } from "./openapi/document.ts";
import { readiness } from "./gateway/readiness.ts";

/** A response the gateway built itself (forwarded upstream bytes), handed to a route whose typed
 * handler expects `c.json` output; the route's schema still documents the body. */
function prebuilt<T>(response: Response): T {
  return response as unknown as T;
}

/** The gateway app. */
export function createApp(deps: GatewayDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    getPath: routingPath,
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error, result.target);
    },
  });
  // Records (a model request refused for its body gets its ledger row), logs once, renders.
  app.onError(errorHandler(deps));
  app.use("*", requestId());
  app.use("*", routeGuard());
  app.use("*", apiKeyAuth(deps.store));
  app.use("*", jsonBody(deps.config.maxBody));

  app.openapi(routes.listModels.route, listModelsHandler(deps.catalog));
  app.openapi(routes.getModel.route, getModelHandler(deps.catalog));
  // The model routes answer with responses the gateway built (forwarded bytes, streams, local
  // counts), which the typed c.json() handlers of their routes cannot express; the routes'
  // schemas document them. The lane serves their POSTs; the app, everything else.
  const handlers = modelHandlers(deps);
  for (const [spec, handler] of handlers) app.openapi(spec.route, honoModelHandler(spec, handler));
  app.openapi(routes.usage.route, usageHandler(deps.store, deps.admitter));
  app.openapi(routes.root.route, rootHandler(deps.config));
  app.openapi(routes.healthz.route, (c) => c.json({ status: "ok" as const }, 200));
  app.openapi(routes.readyz.route, async (c) => {
    const { ready, checks, reasons } = await readiness(deps);
    return ready
      ? c.json({ status: "ok" as const, checks }, 200)
      : c.json({ status: "unavailable" as const, checks, reasons }, 503);
  });
  const metrics = metricsHandler(deps);
  app.openapi(routes.metrics.route, async (c) => prebuilt(await metrics(c)));
  registerAdminRoutes(app, deps);
  const document = openApiDocument(app, deps.config.publicBaseUrl);
  app.openapi(routes.openapi.route, (c) => c.json(document(), 200));
  const lane = modelLane(deps, handlers);
  const served = app.fetch;
  app.fetch = (request, env, executionCtx) => lane(request) ?? served(request, env, executionCtx);
  return app;
}
