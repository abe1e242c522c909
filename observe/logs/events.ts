/**
 * Lifecycle events as log lines: the start, the drain and exit of a shutdown, a worker ended and
 * restarted, a deployment's cool-down and recovery. The start-up and shutdown lines stay on
 * stdout, where the person who started gatehouse (and the scripts that wait for `gatehouse
 * listening on`) read them: the plain text they always were, or in json mode a JSON line with an
 * `event` name whose `message` is that text (written at once: they are few). Deployment health
 * lines are log lines (stderr, with the rest). A worker thread's lines carry its number
 * (`worker`; `[worker N]` in text).
 * @module
 */
import type { Logger } from "../../gateway/exchange.ts";
import type { DeploymentHealth, HealthChange } from "../../gateway/health.ts";
import { type ConsoleLogger, isConsoleLogger } from "../../gateway/log.ts";
import type { LogLevel } from "./format.ts";

/** One lifecycle event. */
export interface LifecycleEvent {
  /** `start`, `drain`, `drain_ended`, `responses_open`, `exit`, `worker_ended`, … */
  event: string;
  level?: LogLevel;
  fields?: Record<string, unknown>;
}

/** Writes a lifecycle line: `text` is the line a person reads (and what text mode prints). */
export type LifecycleLog = (text: string, event?: LifecycleEvent) => void;

/**
 * The lifecycle writer over `log`, on stdout whatever `GATEHOUSE_QUIET` says (as these lines
 * always were): with a json-mode console logger a JSON event line (a worker's logger adds its
 * `worker` field), otherwise the text (prefixed `[worker N] ` for a worker other than 0).
 */
export function lifecycleLog(log: Logger, worker?: number): LifecycleLog {
  if (isConsoleLogger(log) && log.format === "json") {
    const json: ConsoleLogger = log;
    return (text, event) =>
      print(json.line(event?.level ?? "info", event?.event ?? "notice", text, event?.fields));
  }
  const prefix = worker === undefined || worker === 0 ? "" : `[worker ${worker}] `;
  return (text) => print(prefix + text);
}

/** Prints a line on stdout; a closed stdout (the reader went away) must not stop a shutdown. */
function print(line: string): void {
  try {
    console.log(line);
  } catch {
    // Nobody reads stdout any more.
  }
}

/** The line for a deployment's state change: `deployment gpt-5@openai cooling until
 * 2026-11-26T13:00:30.000Z (failures: retryable_status, 3 in a row)`. */
export function healthText(change: HealthChange): string {
  const why = change.error === null ? change.reason : `${change.reason}: ${change.error}`;
  const until = change.until === null ? "" : ` until ${new Date(change.until).toISOString()}`;
  const streak = change.to === "cooling" ? `, ${change.consecutiveFailures} in a row` : "";
  return `deployment ${change.deployment} ${change.from} -> ${change.to}${until} (${why}${streak})`;
}

/** Logs each state change of `health`'s deployments: a move to cooling is a warning, a
 * recovery (probing, healthy) an info line; always written on a console logger. */
export function logHealthChanges(health: DeploymentHealth, log: Logger): void {
  health.onChange((change) => {
    const level: LogLevel = change.to === "cooling" ? "warn" : "info";
    const fields = {
      deployment: change.deployment,
      from: change.from,
      to: change.to,
      reason: change.reason,
      error: change.error ?? undefined,
      until: change.until === null ? undefined : new Date(change.until).toISOString(),
      consecutiveFailures: change.consecutiveFailures,
    };
    if (isConsoleLogger(log)) {
      log.event(
        level,
        "deployment_health",
        "deployment health changed",
        fields,
        healthText(change),
      );
    } else {
      log[level]("deployment health changed", fields);
    }
  });
}
