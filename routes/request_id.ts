/**
 * The request id: every response carries `x-request-id`, the client's own when it sent a sane
 * one, else a fresh `req_…`. The same id names the request's ledger row and log lines, so an
 * operator can find a user's failed call from the header the user saw.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { REQUEST_ID_HEADER, requestIdFrom } from "../core/ids.ts";
import type { AppEnv } from "./env.ts";

/** Middleware: picks the request id. Who puts it on the response: a model request's answer is
 * built by the gateway with it (`Lifecycle.responseHeaders`), an error response by the error
 * handler (`on_error.ts`), and any other answer (built by Hono) takes it from here.
 *
 * Model routes are the POST routes. For them this does nothing more: both the prepared header
 * and an early abort signal cost a model request throughput (about a tenth of small JSON
 * answers' at c=32, `deno task bench`). Their signal is made when the request is handed over
 * (`handover.ts`), after the body is read, and a body read cut short is the client's leaving
 * (`ClientGone`). */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async function requestId(c, next) {
    c.set("receivedAt", performance.now());
    const id = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    c.set("requestId", id);
    if (c.req.method !== "POST") {
      c.header(REQUEST_ID_HEADER, id);
      // Deno.serve makes a request's abort signal on first access, and one made after the
      // client left never aborts (Deno 2.9): made now, it tells the error handler whether the
      // client is still there.
      void c.req.raw.signal;
    }
    await next();
  };
}
