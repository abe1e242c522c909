/**
 * API-key authentication. Every failure is a 401 whose message names which problem it is, so a
 * user can tell a typo from an unset variable. The key itself is never echoed.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { GatewayError } from "../core/errors.ts";
import type { KeyRecord, KeyRefusal, Store } from "../store/store.ts";
import { assertNever } from "../core/stream.ts";
import { parseKeyId } from "../store/api_key.ts";
import type { AppEnv } from "./env.ts";
import { type KeySources, keySources } from "./security.ts";
import { routeList, type RouteSpec } from "./table.ts";

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
  // A well-formed key is never a placeholder: about one id in 32,768 starts with "xxx".
  if (PLACEHOLDER.test(raw) && parseKeyId(raw) === null) {
    return {
      problem:
        `${where} carries an unsubstituted placeholder instead of a key: replace it with the key itself (deno task keys create).`,
    };
  }
  return { key: raw };
}

/** The 401 message for a refused key: what happened, when, and what to do. A key whose secret
 * did not match is "unknown" whatever its id: nothing is told about a key to one who does not
 * hold it. */
export function refusalMessage(refusal: KeyRefusal): string {
  switch (refusal.reason) {
    case "unknown":
      return "The API key is not valid: it is unknown. Create one with `deno task keys create --name NAME`.";
    case "revoked":
      return `The API key was revoked at ${iso(refusal.at)}: ask an admin for a new key.`;
    case "expired":
      return `The API key expired at ${
        iso(refusal.at)
      }: ask an admin to extend it (deno task keys update ID --expires 30d) or for a new key.`;
    case "rotated":
      return `The API key was rotated at ${
        iso(refusal.at)
      } and this secret's grace period has ended: use the key issued by the rotation.`;
    default:
      return assertNever(refusal, "key refusal");
  }
}

const iso = (time: number) => new Date(time).toISOString();

/** Verifies the key `headers` present for `spec`'s route (read from `sources`, the route's
 * security): its record, or a 401/403 `GatewayError` saying what is wrong. */
export async function authenticate(
  store: Store,
  spec: RouteSpec,
  sources: KeySources,
  headers: Headers,
): Promise<KeyRecord> {
  const presented = presentedKey(headers, sources);
  if ("problem" in presented) {
    throw new GatewayError("authentication", 401, presented.problem, { code: "invalid_api_key" });
  }
  const check = await store.checkKey(presented.key);
  if (!("record" in check)) {
    throw new GatewayError("authentication", 401, refusalMessage(check), {
      code: check.reason === "expired" ? "expired_api_key" : "invalid_api_key",
    });
  }
  const record = check.record;
  if (sources.adminOnly && !record.admin) {
    throw new GatewayError(
      "permission",
      403,
      `${spec.route.path} is an admin route and this key is not an admin key: call it with an ` +
        "admin key (deno task keys create --name NAME --admin).",
      { code: "admin_key_required" },
    );
  }
  return record;
}

/** Each row's key sources, computed once, so a scheme the table names but never declares stops
 * the start. */
export function keySourcesByRoute(): Map<RouteSpec, KeySources> {
  return new Map(routeList.map((spec) => [spec, keySources(spec.route.security)]));
}

/** Middleware: verifies the caller's key and stores its record as `key`. Which routes need a key,
 * and in which headers, is each row's OpenAPI `security` (an empty list: no key). */
export function apiKeyAuth(store: Store): MiddlewareHandler<AppEnv> {
  const sourcesOf = keySourcesByRoute();
  return async function apiKeyAuth(c, next) {
    const spec = c.get("spec");
    if (spec.route.security.length === 0) return await next();
    c.set("key", await authenticate(store, spec, sourcesOf.get(spec)!, c.req.raw.headers));
    await next();
  };
}
