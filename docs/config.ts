/**
 * The docs host's settings, read from the environment once at start: where it listens
 * (`DOCS_PORT`) and the public addresses it writes into pages and scripts.
 * @module
 */

/** Everything the docs listener needs from the environment. */
export interface DocsConfig {
  /** The port, or null when `DOCS_PORT=off` turns the docs host off. */
  port: number | null;
  /** The API root (`PUBLIC_BASE_URL`, else `http://127.0.0.1:<API port>`). */
  publicBaseUrl: string;
  /** The docs host's public address (`DOCS_URL`, else `http://127.0.0.1:<docs port>`). */
  docsUrl: string;
  /** The reserved alternative root (`ALT_BASE_URL`). */
  altBaseUrl: string | null;
  /** `ALT_BASE_URL_ACTIVE` (default false). */
  altActive: boolean;
}

/** The default `DOCS_PORT`. */
export const DEFAULT_DOCS_PORT = 8081;

/** Reads `DOCS_PORT` (default 8081; `off`: null). The gateway reads it too, to name the docs
 * host in `GET /`. Throws an Error naming the variable on a bad value. */
export function readDocsPort(env: (name: string) => string | undefined): number | null {
  const raw = env("DOCS_PORT")?.trim();
  if (raw === "off") return null;
  if (raw === undefined || raw === "") return DEFAULT_DOCS_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`DOCS_PORT="${raw}" is not a port (0-65535) or "off".`);
  }
  return port;
}

/** Reads the docs settings; throws an Error naming the variable on a bad value. */
export function readDocsConfig(
  env: (name: string) => string | undefined,
  defaults: { apiPort: number },
): DocsConfig {
  const port = readDocsPort(env);
  const publicBaseUrl = url(env, "PUBLIC_BASE_URL") ?? `http://127.0.0.1:${defaults.apiPort}`;
  if (/\/v1$/i.test(publicBaseUrl)) {
    throw new Error(
      `PUBLIC_BASE_URL="${publicBaseUrl}" ends in /v1: give the gateway root; clients add /v1.`,
    );
  }
  const docsUrl = url(env, "DOCS_URL") ?? `http://127.0.0.1:${port ?? DEFAULT_DOCS_PORT}`;
  if (!/^[A-Za-z0-9._~/%-]*$/.test(new URL(docsUrl).pathname)) {
    throw new Error(`DOCS_URL="${docsUrl}" has a path with characters a link cannot carry.`);
  }
  const active = (env("ALT_BASE_URL_ACTIVE") ?? "").trim().toLowerCase();
  if (!["", "0", "1", "true", "false", "yes", "no"].includes(active)) {
    throw new Error(`ALT_BASE_URL_ACTIVE="${active}" is not true or false.`);
  }
  return {
    port,
    publicBaseUrl,
    docsUrl,
    altBaseUrl: url(env, "ALT_BASE_URL"),
    altActive: ["1", "true", "yes"].includes(active),
  };
}

function url(env: (name: string) => string | undefined, name: string): string | null {
  const raw = env(name)?.trim();
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`${name}="${raw}" is not a URL.`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new Error(`${name}="${raw}" must be an http:// or https:// address.`);
  }
  if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new Error(`${name}="${raw}" must be a bare address (no query, fragment or credentials).`);
  }
  return parsed.href.replace(/\/+$/, "");
}
