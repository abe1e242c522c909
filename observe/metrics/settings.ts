/**
 * The metrics settings: whether they run (`GATEHOUSE_METRICS`), whether request series carry the
 * key's name (`GATEHOUSE_METRICS_KEY_LABELS`), and the unauthenticated scrape listener
 * (`METRICS_PORT`, `METRICS_HOST`).
 * @module
 */
import type { Env } from "../../gateway/config.ts";

/** What the metrics settings ask for. */
export interface MetricsSettings {
  /** False with `GATEHOUSE_METRICS=off`: no observer, `/metrics` answers 404. */
  enabled: boolean;
  /** `GATEHOUSE_METRICS_KEY_LABELS=1`: request series carry a `key` label (the key's name). */
  keyLabels: boolean;
  /** `METRICS_PORT`: serve `/metrics` without a key on this port too; null when unset. */
  port: number | null;
  /** `METRICS_HOST`: where that port listens; null: the API's host. */
  host: string | null;
}

const ON = ["", "1", "on", "true", "yes"];
const OFF = ["0", "off", "false", "no"];

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = (env(name) ?? "").trim().toLowerCase();
  if (raw === "") return fallback;
  if (ON.includes(raw)) return true;
  if (OFF.includes(raw)) return false;
  throw new Error(`${name}="${raw}" is not on or off (1, on, true / 0, off, false).`);
}

/** Reads the metrics settings; throws an Error naming the variable on a bad value. */
export function readMetricsSettings(env: Env): MetricsSettings {
  const rawPort = env("METRICS_PORT")?.trim() ?? "";
  let port: number | null = null;
  if (rawPort !== "" && rawPort !== "off") {
    port = Number(rawPort);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new Error(`METRICS_PORT="${rawPort}" is not a port (0-65535) or "off".`);
    }
  }
  const host = env("METRICS_HOST")?.trim() || null;
  return {
    enabled: flag(env, "GATEHOUSE_METRICS", true),
    keyLabels: flag(env, "GATEHOUSE_METRICS_KEY_LABELS", false),
    port,
    host,
  };
}
