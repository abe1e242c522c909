/**
 * Postgres URLs: which values name one, and how to describe one without its secrets.
 * @module
 */

const POSTGRES_URL = /^postgres(?:ql)?:\/\//i;

/** True when `value` is a `postgres://` or `postgresql://` URL. */
export function isPostgresUrl(value: string): boolean {
  return POSTGRES_URL.test(value.trim());
}

/** `postgres://host:port/database`: no user, password or query parameters (which may hold
 * secrets such as `password=` or `sslkey=`). */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url.trim());
    const host = parsed.hostname === "" ? "localhost" : parsed.hostname;
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
    return `postgres://${host}:${parsed.port === "" ? "5432" : parsed.port}/${database}`;
  } catch {
    return "postgres://(unparseable URL)";
  }
}
