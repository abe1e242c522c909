/**
 * API-key authentication. Every failure is a 401 whose message names which problem it is, so a
 * user can tell a typo from an unset variable. The key itself is never echoed.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { GatewayError } from "../core/errors.ts";
import type { Store } from "../store/store.ts";
import type { AppEnv } from "./env.ts";
import { type KeySources, keySources } from "./security.ts";
import { routeList } from "./table.ts";

/** A presented credential, or why there is none. */
export type Presented = { key: string } | { problem: string };

const PLACEHOLDER =
  /^(<[^>]*>|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|\{\{[^}]*\}\}|%[A-Z_]+%)$|^(your|my)[-_ ]?(api[-_ ]?)?key$|^(sk|gth)[-_](x{3,}|\.{3}|…)/i;

/** Reads the key from where the route's security allows it: `Authorization: Bearer`, then the
 * named headers (`x-api-key`). */
export function presentedKey(headers: Headers, sources: KeySources): Presented {
  const authorization = sources.bearer ? headers.get("authorization") : null;
  const named = sources.headers.find((name) => headers.has(name));
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
  } else if (named !== undefined) {
    raw = headers.get(named)!;
    where = `The ${named} header`;
  } else {
    const forms = [
      ...(sources.bearer ? ["Authorization: Bearer <key>"] : []),
      ...sources.headers.map((name) => `${name}: <key>`),
    ];
    return { problem: `No API key: send ${forms.join(" or ")} with a gatehouse key.` };
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

/** Middleware: verifies the caller's key and stores its record as `key`. Which routes need a key,
 * and in which headers, is each row's OpenAPI `security` (an empty list: no key). */
export function apiKeyAuth(store: Store): MiddlewareHandler<AppEnv> {
  // Computed once, so a scheme the table names but never declares stops the start.
  const sourcesOf = new Map(routeList.map((spec) => [spec, keySources(spec.route.security)]));
  return async function apiKeyAuth(c, next) {
    const spec = c.get("spec");
    if (spec.route.security.length === 0) return await next();
    const presented = presentedKey(c.req.raw.headers, sourcesOf.get(spec)!);
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
