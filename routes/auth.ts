/**
 * API-key authentication. Every failure is a 401 whose message names which problem it is, so a
 * user can tell a typo from an unset variable. The key itself is never echoed.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { GatewayError } from "../core/errors.ts";
import type { Store } from "../store/store.ts";
import type { AppEnv } from "./env.ts";

/** A presented credential, or why there is none. */
export type Presented = { key: string } | { problem: string };

const PLACEHOLDER =
  /^(<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|\{\{[^}]*\}\}|%[A-Z_]+%)$|^(your|my)[-_ ]?(api[-_ ]?)?key$|^(sk|gth)[-_](x{3,}|\.{3}|…)/i;

/** Reads the key from `Authorization: Bearer` (every route) or `x-api-key` (messages routes). */
export function presentedKey(headers: Headers, allowXApiKey: boolean): Presented {
  const authorization = headers.get("authorization");
  const xApiKey = allowXApiKey ? headers.get("x-api-key") : null;
  let raw: string;
  let where: string;
  if (authorization !== null) {
    const match = /^bearer(\s+|$)/i.exec(authorization);
    if (!match) {
      return {
        problem: 'The Authorization header must be "Bearer <key>"; it has another scheme.',
      };
    }
    raw = authorization.slice(match[0].length);
    where = "The Authorization header";
  } else if (xApiKey !== null) {
    raw = xApiKey;
    where = "The x-api-key header";
  } else {
    return {
      problem: allowXApiKey
        ? "No API key: send Authorization: Bearer <key> or x-api-key: <key> with a gatehouse key."
        : "No API key: send Authorization: Bearer <key> with a gatehouse key.",
    };
  }
  if (raw.trim() === "") {
    return { problem: `${where} carries an empty key: the variable holding it is probably unset.` };
  }
  if (/[\s]/.test(raw)) {
    return {
      problem:
        `${where} carries a key with whitespace or a line break inside: copy the key again, without spaces or newlines.`,
    };
  }
  if (PLACEHOLDER.test(raw)) {
    return {
      problem:
        `${where} carries an unsubstituted placeholder instead of a key: replace it with the key itself (deno task keys create).`,
    };
  }
  return { key: raw };
}

/** Middleware: verifies the caller's key and stores its record as `key`. */
export function apiKeyAuth(store: Store): MiddlewareHandler<AppEnv> {
  return async function apiKeyAuth(c, next) {
    const spec = c.get("spec");
    if (!spec.auth) return await next();
    // The route table says which routes take `x-api-key` (their security lists apiKeyHeader).
    const acceptsXApiKey = spec.route.security?.some((s) => "apiKeyHeader" in s) ?? false;
    const presented = presentedKey(c.req.raw.headers, acceptsXApiKey);
    if ("problem" in presented) {
      throw new GatewayError("authentication", 401, presented.problem, { code: "invalid_api_key" });
    }
    const record = await store.verifyKey(presented.key);
    if (!record) {
      throw new GatewayError(
        "authentication",
        401,
        "The API key is not valid: it is unknown or revoked. Create one with `deno task keys create --name NAME`.",
        { code: "invalid_api_key" },
      );
    }
    c.set("key", record);
    await next();
  };
}
