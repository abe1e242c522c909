/**
 * A guard against one crash of the `postgres` driver (3.4.9) under Deno. When the server ends a
 * connection inside a transaction (a restart, `pg_terminate_backend`, a failover), the
 * transaction's promise rejects as it should — the ledger keeps its rows and retries — but the
 * driver then writes to the closed socket from a timer and throws a `TypeError` that no caller
 * can catch, which would end the gateway. The pool itself recovers (the next query opens a new
 * connection), so that error, and only that one (a `TypeError` thrown from the driver's own
 * connection code), is stopped here and logged. Likewise, a connection ended under it (its
 * LISTEN connection re-subscribing, a socket reset mid-read) can leave the server's error or the
 * socket's `ECONNRESET` in a promise no one holds: an unhandled rejection, which also ends a Deno
 * process. Such a rejection — a connection error whose stack holds no frame but the driver's and
 * the runtime's own — is logged and stopped; the pool reconnects, and the key-generation poll
 * notices key changes meanwhile. Any other uncaught error or rejection still ends the process.
 * @module
 */

/** A frame in the driver's sources: `node_modules/…/postgres/src/` (nodeModulesDir) or the
 * global npm cache's `…/postgres/3.4.9/src/`. */
const DRIVER_FRAME = /\/postgres(?:\/\d+\.\d+\.\d+)?\/src\//;

/** Whether `error` is the driver's write-after-close crash. */
export function isDriverSocketCrash(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const stack = error.stack ?? "";
  return /null \(reading 'write'\)/.test(error.message) &&
    stack.split("\n").some((line) => DRIVER_FRAME.test(line) && line.includes("connection.js"));
}

/** Server codes of a connection the server ended: admin shutdown, crash shutdown, cannot
 * connect now (a restart), and `pg_terminate_backend`'s. */
const ENDED_BY_SERVER = new Set(["57P01", "57P02", "57P03"]);
const SOCKET_ERROR = /^(?:read|write)?\s*(?:ECONNRESET|EPIPE|ECONNREFUSED|ETIMEDOUT)\b|CONNECTION_/;

/** Whether `reason` is a connection error raised inside the driver (or its socket) that no
 * caller holds. */
export function isDriverOrphanRejection(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  const frames = (reason.stack ?? "").split("\n").filter((line) => line.trim().startsWith("at "));
  // Seen by no code but the driver's and the runtime's (`ext:`): a rejection that passed
  // through gatehouse code (or any other module) is not this.
  const code = frames.filter((line) => !/\(ext:|at ext:/.test(line));
  if (!code.every((line) => DRIVER_FRAME.test(line))) return false;
  const serverCode = (reason as { code?: unknown }).code;
  if (reason.name === "PostgresError") {
    return typeof serverCode === "string" && ENDED_BY_SERVER.has(serverCode);
  }
  return SOCKET_ERROR.test(reason.message);
}

let installed = false;

/** Installs the guard once per process (every Postgres store shares it). */
export function guardDriverCrash(log: (message: string) => void): void {
  if (installed) return;
  installed = true;
  globalThis.addEventListener("error", (event) => {
    if (!isDriverSocketCrash(event.error)) return;
    event.preventDefault();
    log(
      "postgres driver: a connection the server closed was written to after its transaction " +
        "failed; ignored (the pool reconnects)",
    );
  });
  globalThis.addEventListener("unhandledrejection", (event) => {
    if (!isDriverOrphanRejection(event.reason)) return;
    event.preventDefault();
    log(`postgres driver: ${(event.reason as Error).message} (a connection it re-opens); ignored`);
  });
}
