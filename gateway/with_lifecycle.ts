/**
 * The frame every model handler runs in: a new lifecycle, and the settle of whatever stopped the
 * request before it had a response.
 * @module
 */
import type { GatewayDeps, RouteRequest } from "./exchange.ts";
import { shuttingDown } from "./in_flight.ts";
import { Lifecycle } from "./lifecycle.ts";

/** Runs `work` inside a new lifecycle of `request`: whatever `work` throws before it returns a
 * response settles the request (the outcome decided by the stage it was in) and goes on to the
 * route's error rendering. */
export async function withLifecycle(
  deps: GatewayDeps,
  request: RouteRequest,
  stream: boolean,
  work: (life: Lifecycle) => Promise<Response>,
): Promise<Response> {
  const life = new Lifecycle(deps, request, stream);
  try {
    if (deps.inflight.draining) throw shuttingDown(deps.inflight.signal);
    return await work(life);
  } catch (error) {
    // A request the shutdown stopped fails with the shutdown's error, whatever broke off.
    const shown = life.shutdownError ?? error;
    life.fail(shown);
    throw shown;
  }
}
