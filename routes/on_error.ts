/**
 * The app's error handler: records and logs a failure once, then renders it in the route's
 * envelope. A model request's failure belongs to its lifecycle, which writes its one ledger row
 * and logs a failure of gatehouse's own code with the request id (`gateway/lifecycle.ts`
 * `fail`); for a model request refused before its handler that lifecycle is opened here
 * (`handover.ts`). Every other request's unexpected failure is logged here, with its request id.
 * A client that left is not an error: whatever its request then throws (an AbortError) is at
 * most an info line.
 * @module
 */
import type { ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { GatewayDeps, Logger } from "../gateway/exchange.ts";
import { ClientGone } from "../core/errors.ts";
import { REQUEST_ID_HEADER } from "../core/ids.ts";
import type { AppEnv } from "./env.ts";
import { settleRefusal } from "./handover.ts";
import { errorResponse, toGatewayError } from "./render_error.ts";

/** The handler for `app.onError`. */
export function errorHandler(deps: GatewayDeps): ErrorHandler<AppEnv> {
  return function onError(error, c) {
    // A handed-over request's lifecycle has already settled and logged this failure.
    if (c.get("handedOver") !== true && !settleRefusal(deps, c, error)) {
      logFailure(deps.log, {
        requestId: c.get("requestId"),
        method: c.req.method,
        path: c.req.path,
        signal: c.req.raw.signal,
      }, error);
    }
    const response = errorResponse(toGatewayError(error), c.get("envelope") ?? "openai");
    const id = c.get("requestId");
    if (id !== undefined) response.headers.set(REQUEST_ID_HEADER, id);
    return response;
  };
}

/** Logs the failure of a request outside the ledger: nothing for a refusal the gateway chose (an
 * HTTP exception, `GatewayError` included), an info line when the client had left, else an error
 * line with the stack. */
export function logFailure(
  log: Logger,
  request: { requestId: string | undefined; method: string; path: string; signal: AbortSignal },
  error: unknown,
): void {
  if (error instanceof HTTPException) return;
  const fields = { requestId: request.requestId, method: request.method, path: request.path };
  if (error instanceof ClientGone || request.signal.aborted) {
    log.info("the client left before the answer", fields);
    return;
  }
  log.error("request failed in the gateway", {
    ...fields,
    error: String(error),
    stack: (error as Error)?.stack,
  });
}
