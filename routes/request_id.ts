/**
 * The request id: every response carries `x-request-id`, the client's own when it sent a sane
 * one, else a fresh `req_…`. The same id names the request's ledger row and log lines, so an
 * operator can find a user's failed call from the header the user saw.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { requestIdFrom } from "../core/ids.ts";
import type { AppEnv } from "./env.ts";

/** Middleware: picks the request id and puts it on the response, error responses included. */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async function requestId(c, next) {
    const id = requestIdFrom(c.req.header("x-request-id"));
    c.set("requestId", id);
    // Deno.serve makes a request's abort signal on first access, and one made after the client
    // left never aborts (Deno 2.9): made now, it tells every later stage, the error handler
    // included, whether the client is still there.
    void c.req.raw.signal;
    await next();
    c.res.headers.set("x-request-id", id);
  };
}
