/**
 * Conversion warnings, told to the client in a response header and to the operator in the log.
 * @module
 */
import type { Warning } from "../core/convert.ts";
import type { LlmExchange } from "./exchange.ts";
import type { ResponseHead } from "./response_head.ts";

/** The response header that carries warnings. */
export const WARNINGS_HEADER = "x-gatehouse-warnings";
const MAX_HEADER = 4000;

/** Headers with the warnings (JSON array of `{field, message}`, cut to fit a header), logging
 * them too. Header values must be ASCII, so non-ASCII characters are escaped. */
export function warningHeaders(warnings: Warning[], exchange: LlmExchange): ResponseHead {
  const headers = exchange.life.responseHeaders();
  if (warnings.length === 0) return headers;
  exchange.deps.log.warn("translation warnings", {
    route: exchange.route,
    model: exchange.model.id,
    warnings,
  });
  let list = warnings;
  let value = encode(list);
  while (value.length > MAX_HEADER && list.length > 1) {
    list = list.slice(0, Math.ceil(list.length / 2));
    value = encode([...list, {
      field: "*",
      message: `${warnings.length - list.length} more in the gateway log`,
    }]);
  }
  headers.set(WARNINGS_HEADER, value);
  return headers;
}

function encode(warnings: Warning[]): string {
  return JSON.stringify(warnings).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
