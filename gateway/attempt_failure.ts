/**
 * A failed attempt the attempt stage may retry, and the error the client gets when it was the
 * last: the upstream's status mapped into the client's own envelope (429 stays 429 with its
 * retry headers; overloaded becomes 503, timeouts 504, other failures 502), never the raw body of
 * another protocol.
 * @module
 */
import { type ErrorKind, GatewayError } from "../core/errors.ts";
import type { AttemptResult } from "../store/store.ts";
import { SERVED_MODEL_HEADER } from "../core/ids.ts";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** An attempt that failed before anything reached the client. */
export class AttemptFailed extends Error {
  /** What became of the attempt (the ledger's per-attempt result). */
  readonly result: Exclude<AttemptResult, "ok" | "aborted">;
  /** The upstream's status, 0 when none came. */
  readonly status: number;
  /** The failure as the client would see it: the provider's message, code and retry headers. */
  readonly error: GatewayError;
  /** The wait the provider asked for, ms, when it named one. */
  readonly retryAfterMs: number | null;
  /** Whether the same deployment may be tried again (not after its credential was refused). */
  readonly retrySame: boolean;

  constructor(
    result: AttemptFailed["result"],
    status: number,
    error: GatewayError,
    retryAfterMs: number | null = null,
  ) {
    super(error.message, { cause: error });
    this.retrySame = result !== "credential_refused";
    this.name = "AttemptFailed";
    this.result = result;
    this.status = status;
    this.error = error;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The status and kind the client gets for a last failure. */
function mapped(failure: AttemptFailed): { status: ContentfulStatusCode; kind: ErrorKind } {
  const { status, result, error } = failure;
  if (result === "context_overflow") return { status: error.status, kind: error.kind };
  if (status === 429) return { status: 429, kind: "rate_limit" };
  if (result === "connect_timeout" || result === "header_timeout") {
    return { status: 504, kind: "timeout" };
  }
  if (status === 503 || status === 529 || error.kind === "overloaded") {
    return { status: 503, kind: "overloaded" };
  }
  if (status === 408 || status === 504 || error.kind === "timeout") {
    return { status: 504, kind: "timeout" };
  }
  return { status: 502, kind: "upstream" };
}

/** The error the client gets when `failure` was the last of `attempts` attempts. */
export function finalError(failure: AttemptFailed, attempts: number): GatewayError {
  const { status, kind } = mapped(failure);
  const error = failure.error;
  if (attempts <= 1 && status === error.status && kind === error.kind) return error;
  const tries = attempts <= 1 ? "" : `After ${attempts} attempts: `;
  return new GatewayError(kind, status, `${tries}${error.message}`, {
    code: error.code,
    param: error.param,
    headers: error.headers,
    cause: failure,
  });
}

/** `error`, naming the model that answered (or was tried last) in `x-gatehouse-served-model`. */
export function served(error: GatewayError, model: string): GatewayError {
  error.headers[SERVED_MODEL_HEADER] = model;
  return error;
}

/** The code of the refusal when every deployment that could serve a request is cooling down. */
export const NO_HEALTHY_DEPLOYMENT = "no_healthy_deployment";

/** 503 when no deployment of the model or its fallbacks may take a request now. */
export function noHealthyDeployment(model: string, retryInMs: number | null): GatewayError {
  const seconds = retryInMs === null ? null : Math.max(1, Math.ceil(retryInMs / 1000));
  const when = seconds === null ? "" : ` The first comes back in ${seconds} s.`;
  return new GatewayError(
    "overloaded",
    503,
    `Every deployment of "${model}" (and of its fallbacks) is cooling down after repeated ` +
      `upstream failures.${when} GET /readyz shows the state; retry later.`,
    {
      code: NO_HEALTHY_DEPLOYMENT,
      headers: seconds === null ? {} : { "retry-after": String(seconds) },
    },
  );
}
