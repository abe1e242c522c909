/**
 * The request log's part of an instance's observers: the request-line observer (unless
 * `GATEHOUSE_QUIET=1`: request lines are info lines), the deployment health lines, and the
 * sink's flush at the shutdown.
 * @module
 */
import type { Logger } from "../../gateway/exchange.ts";
import type { DeploymentHealth } from "../../gateway/health.ts";
import { isConsoleLogger } from "../../gateway/log.ts";
import type { Observer } from "../observer.ts";
import { logHealthChanges } from "./events.ts";
import { requestLogObserver } from "./request_log.ts";

/** The request log of one instance. */
export interface RequestLogs {
  /** The request-line observer; null when quiet. */
  observer: Observer | null;
  /** Writes every line still buffered. */
  close(): Promise<void>;
}

/** Starts the request log on `log` and the deployment health lines of `health`. */
export function startRequestLogs(parts: { log: Logger; health: DeploymentHealth }): RequestLogs {
  const { log, health } = parts;
  logHealthChanges(health, log);
  const writer = isConsoleLogger(log) ? log : null;
  return {
    observer: writer?.quiet === true ? null : requestLogObserver(log),
    close: () => writer?.flush() ?? Promise.resolve(),
  };
}
