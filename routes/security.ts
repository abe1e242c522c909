/**
 * The security schemes the route table's requirements name. The OpenAPI document declares them
 * (`openapi/document.ts`) and the auth middleware reads a route's key from the headers they name
 * (`auth.ts`), so which routes take which credential is written once, in each row's `security`.
 * @module
 */

/** An OpenAPI security requirement list: any one entry suffices; an empty list needs no key. A
 * scheme's list names the roles the key must have (OpenAPI 3.1 allows role names for `http`
 * schemes): `["admin"]`, or none. */
export type Security = Array<Record<string, string[]>>;

/** The roles a requirement may name. */
export const ROLES = ["admin"] as const;
/** One of {@link ROLES}. */
export type Role = typeof ROLES[number];

/** A scheme as the OpenAPI document declares it: a bearer token or a named header. */
export type SecurityScheme =
  | { type: "http"; scheme: "bearer"; description: string }
  | { type: "apiKey"; in: "header"; name: string; description: string };

/** Every scheme a row may name. */
export const SECURITY_SCHEMES: Record<string, SecurityScheme> = {
  bearerAuth: {
    type: "http",
    scheme: "bearer",
    description:
      "A gatehouse key (`deno task keys create --name NAME`), as `Authorization: Bearer <key>`. " +
      "The admin routes (role `admin`) take an admin key (`deno task keys create --name NAME --admin`).",
  },
  apiKeyHeader: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description:
      "The same gatehouse key as `x-api-key` (messages and models routes; what the Anthropic SDK sends).",
  },
};

/** A gatehouse key as `Authorization: Bearer`. */
export const BEARER: Security = [{ bearerAuth: [] }];
/** A gatehouse key as `Authorization: Bearer` or `x-api-key` (what Anthropic clients send). */
export const BEARER_OR_API_KEY_HEADER: Security = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
/** An admin key as `Authorization: Bearer` (the admin routes). */
export const ADMIN: Security = [{ bearerAuth: ["admin"] }];
/** No key. */
export const PUBLIC: Security = [];

/** Where a route's key may be presented. */
export interface KeySources {
  /** `Authorization: Bearer <key>`. */
  bearer: boolean;
  /** Header names carrying the bare key (`x-api-key`), lower case. */
  headers: string[];
  /** Only an admin key may call the route ({@link requiresAdmin}); another key gets 403. */
  adminOnly: boolean;
}

/** The key sources a security requirement list allows. Throws on a scheme that is not declared
 * or a role that is not one of {@link ROLES}, so a typo in the table fails at start-up rather
 * than locking (or opening) a route. */
export function keySources(security: Security): KeySources {
  const sources: KeySources = { bearer: false, headers: [], adminOnly: requiresAdmin(security) };
  for (const [name, roles] of security.flatMap((requirement) => Object.entries(requirement))) {
    const scheme = SECURITY_SCHEMES[name];
    if (scheme === undefined) throw new Error(`unknown security scheme ${name}`);
    for (const role of roles) {
      if (!(ROLES as readonly string[]).includes(role)) {
        throw new Error(`unknown role ${role} in security scheme ${name}`);
      }
    }
    if (scheme.type === "http") sources.bearer = true;
    else if (!sources.headers.includes(scheme.name)) sources.headers.push(scheme.name);
  }
  return sources;
}

/** Whether a route takes only admin keys: it needs a key, and every alternative of its
 * requirement list names the `admin` role (on one of its schemes: they all apply at once). A list
 * where only some alternatives name it throws: which alternative a key came by is not tracked, so
 * such a route would be open to every key. */
export function requiresAdmin(security: Security): boolean {
  const admin = security.map((requirement) =>
    Object.values(requirement).some((roles) => roles.includes("admin"))
  );
  if (admin.some(Boolean) && !admin.every(Boolean)) {
    throw new Error("the admin role must be on every alternative of a security requirement");
  }
  return admin.length > 0 && admin.every(Boolean);
}
