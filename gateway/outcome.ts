/**
 * How a request ended, decided in one place: from the error that stopped it and the stage it
 * stopped in, or from how its response stream ended.
 * @module
 */
import {
  ClientGone,
  GatewayError,
  STREAM_IDLE_TIMEOUT,
  STREAM_INCOMPLETE,
} from "../core/errors.ts";
import type { Outcome } from "../store/store.ts";
import { SHUTTING_DOWN } from "./in_flight.ts";

/** The stages of a request after authentication, in order. */
export type Stage = "resolve" | "admit" | "attempt" | "deliver";

/** An ending: the outcome and the HTTP status the client got. */
export interface Ending {
  outcome: Outcome;
  status: number;
}

/** The status recorded for a client that left before any response was sent (nginx's 499). */
const CLIENT_CLOSED = 499;

/** The ending of a request stopped by `error` in `stage`. Before the upstream is called a
 * gateway error is a refusal (`rejected`: unknown model, bad field, limits); from the attempt on
 * it is the upstream's doing (`timeout` for a deadline, `upstream_cut` for a body that broke off,
 * else `upstream_error`). Anything that is not a gateway error is our own failure. */
export function endingOfError(error: unknown, stage: Stage, clientLeft: boolean): Ending {
  if (clientLeft || error instanceof ClientGone) {
    return { outcome: "client_disconnect", status: CLIENT_CLOSED };
  }
  if (!(error instanceof GatewayError)) return { outcome: "internal_error", status: 500 };
  const status = error.status;
  if (error.code === SHUTTING_DOWN) return { outcome: "shutdown", status };
  if (stage === "resolve" || stage === "admit") return { outcome: "rejected", status };
  return { outcome: upstreamOutcome(error), status };
}

/** The outcome of a stream that ended with `error`: cut off, silent past the idle timeout, or
 * the gateway's budget cut, or else an error event the upstream sent (whatever its kind: an upstream's own `timeout_error`
 * event is still the upstream's error). */
export function streamOutcome(error: GatewayError): Outcome {
  if (error.kind === "quota") return "budget_cut";
  if (error.code === SHUTTING_DOWN) return "shutdown";
  if (error.code === STREAM_INCOMPLETE) return "upstream_cut";
  if (error.code === STREAM_IDLE_TIMEOUT) return "timeout";
  return "upstream_error";
}

/** The outcome an upstream failure stands for. */
function upstreamOutcome(error: GatewayError): Outcome {
  if (error.code === STREAM_INCOMPLETE) return "upstream_cut";
  if (error.kind === "timeout") return "timeout";
  return "upstream_error";
}
