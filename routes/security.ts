/**
 * The security schemes the route table's requirements name. The OpenAPI document declares them
 * (`openapi/document.ts`) and the auth middleware reads a route's key from the headers they name
 * (`auth.ts`), so which routes take which credential is written once, in each row's `security`.
 * @module
 */

/** An OpenAPI security requirement list: any one entry suffices; an empty list needs no key. */
export type Security = Array<Record<string, string[]>>;

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
      "A gatehouse key (`deno task keys create --name NAME`), as `Authorization: Bearer <key>`.",
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
/** No key. */
export const PUBLIC: Security = [];

/** Where a route's key may be presented. */
export interface KeySources {
  /** `Authorization: Bearer <key>`. */
  bearer: boolean;
  /** Header names carrying the bare key (`x-api-key`), lower case. */
  headers: string[];
}

/** The key sources a security requirement list allows. Throws on a scheme that is not declared,
 * so a typo in the table fails at start-up rather than locking a route. */
export function keySources(security: Security): KeySources {
  const sources: KeySources = { bearer: false, headers: [] };
  for (const name of security.flatMap((requirement) => Object.keys(requirement))) {
    const scheme = SECURITY_SCHEMES[name];
    if (scheme === undefined) throw new Error(`unknown security scheme ${name}`);
    if (scheme.type === "http") sources.bearer = true;
    else if (!sources.headers.includes(scheme.name)) sources.headers.push(scheme.name);
  }
  return sources;
}
