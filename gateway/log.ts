/**
 * The loggers. The console logger writes one line per entry to this thread's buffered stderr sink
 * (`observe/logs/sink.ts`), as readable text or as JSON (`GATEHOUSE_LOG_FORMAT`,
 * `observe/logs/format.ts`); `memoryLogger` keeps lines for tests. Callers never pass secrets,
 * prompts or outputs; the sink redacts key-shaped strings all the same.
 * @module
 */
import type { Env } from "./config.ts";
import type { Logger } from "./exchange.ts";
import {
  isoTime,
  jsonLine,
  type LogFormat,
  type LogLevel,
  readLogFormat,
  redactSecrets,
  textFields,
  textLine,
} from "../observe/logs/format.ts";
import { type LogSink, stderrSink } from "../observe/logs/sink.ts";

/** The console logger: the {@link Logger} calls, plus named events (lifecycle, request lines)
 * and the sink's flushes. */
export interface ConsoleLogger extends Logger {
  readonly format: LogFormat;
  /** Whether info lines (and request lines) are dropped (`GATEHOUSE_QUIET=1`). */
  readonly quiet: boolean;
  /** Writes an event line whatever `quiet` says (start, drain, exit, deployment health): JSON
   * with `event` in json mode; in text mode `text` when given, else the usual text line. */
  event(
    level: LogLevel,
    event: string,
    message: string,
    fields?: Record<string, unknown>,
    text?: string,
  ): void;
  /** The line {@link ConsoleLogger.event} would write, for a caller that writes it elsewhere
   * (the lifecycle lines go to stdout). */
  line(
    level: LogLevel,
    event: string,
    message: string,
    fields?: Record<string, unknown>,
    text?: string,
  ): string;
  /** Resolves once every line so far is written. */
  flush(): Promise<void>;
  /** Writes every queued line now (right before an exit). */
  flushSync(): void;
}

/** How a console logger writes. */
export interface ConsoleLoggerOptions {
  /** Drop info lines (tests, benchmarks). */
  quiet?: boolean;
  format?: LogFormat;
  /** Default: this thread's stderr sink. */
  sink?: LogSink;
  /** Fields every line carries (a worker's `worker` number). */
  fields?: Record<string, unknown>;
}

/** A logger writing one line per entry (JSON or text) to a buffered sink. */
export function consoleLogger(options: ConsoleLoggerOptions = {}): ConsoleLogger {
  const format = options.format ?? "text";
  const sink = options.sink ?? stderrSink();
  const quiet = options.quiet ?? false;
  const base = options.fields;
  const render = (
    level: LogLevel,
    message: string,
    fields: Record<string, unknown> | undefined,
    event?: string,
    text?: string,
  ) => {
    const all = base === undefined ? fields : { ...fields, ...base };
    const time = isoTime();
    const line = format === "json"
      ? jsonLine(time, level, message, all, event)
      : text !== undefined
      ? `${time} ${level.toUpperCase()} ${text}${textFields(base)}`
      : textLine(time, level, message, all);
    return redactSecrets(line);
  };
  const write = (
    level: LogLevel,
    message: string,
    fields: Record<string, unknown> | undefined,
    event?: string,
    text?: string,
  ) => sink.write(render(level, message, fields, event, text));
  return {
    format,
    quiet,
    info: (message, fields) => {
      if (!quiet) write("info", message, fields);
    },
    warn: (message, fields) => write("warn", message, fields),
    error: (message, fields) => write("error", message, fields),
    event: (level, event, message, fields, text) => write(level, message, fields, event, text),
    line: (level, event, message, fields, text) => render(level, message, fields, event, text),
    flush: () => sink.flush(),
    flushSync: () => sink.flushSync(),
  };
}

/** The console logger `env` asks for (`GATEHOUSE_LOG_FORMAT`, `GATEHOUSE_QUIET`); throws an
 * Error naming the variable on a bad format. `worker` is set on a worker thread's lines. */
export function loggerFromEnv(env: Env, worker?: number): ConsoleLogger {
  return consoleLogger({
    format: readLogFormat(env),
    quiet: env("GATEHOUSE_QUIET") === "1",
    fields: worker === undefined ? undefined : { worker },
  });
}

/** Whether `log` is a console logger (events, format, flushes), not a test's memory logger. */
export function isConsoleLogger(log: Logger): log is ConsoleLogger {
  return "event" in log && typeof (log as ConsoleLogger).event === "function";
}

/** A logger that keeps lines in memory, for tests. */
export function memoryLogger(): Logger & {
  lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }>;
} {
  const lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }> = [];
  return {
    lines,
    info: (message, fields) => lines.push({ level: "info", message, fields }),
    warn: (message, fields) => lines.push({ level: "warn", message, fields }),
    error: (message, fields) => lines.push({ level: "error", message, fields }),
  };
}
