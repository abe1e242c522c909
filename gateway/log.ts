/**
 * The console logger: one JSON line per event on stderr. Callers never pass secrets.
 * @module
 */
import type { Logger } from "./exchange.ts";

/** A logger writing JSON lines; `quiet` drops info lines (tests, benchmarks). */
export function consoleLogger(options: { quiet?: boolean } = {}): Logger {
  const write = (level: string, message: string, fields?: Record<string, unknown>) =>
    console.error(JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }));
  return {
    info: (message, fields) => {
      if (!options.quiet) write("info", message, fields);
    },
    warn: (message, fields) => write("warn", message, fields),
    error: (message, fields) => write("error", message, fields),
  };
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
