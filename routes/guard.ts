/**
 * The route guard: runs before auth so that a wrong path or method is a route error (404, 405,
 * 426) whatever the key, and picks the error envelope for everything after it. Every path, method
 * and envelope it knows comes from the route table.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { GatewayError } from "../core/errors.ts";
import { API_PREFIX, type Envelope, routeList, routes, type RouteSpec } from "./table.ts";
import type { AppEnv } from "./env.ts";

interface CompiledPath {
  pattern: RegExp;
  methods: Map<string, RouteSpec>;
}

function compile(): CompiledPath[] {
  const byPath = new Map<string, CompiledPath>();
  for (const spec of routeList) {
    const path = spec.route.path;
    let entry = byPath.get(path);
    if (!entry) {
      const source = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+");
      entry = { pattern: new RegExp(`^${source}$`), methods: new Map() };
      byPath.set(path, entry);
    }
    entry.methods.set(spec.route.method.toUpperCase(), spec);
  }
  return [...byPath.values()];
}

/** The API routes an unknown path's 404 names: every canonical route that has a bare twin. */
function knownRoutes(): string {
  const named = routeList
    .filter((spec) => spec.bare !== null)
    .map((spec) => `${spec.route.method.toUpperCase()} ${spec.route.path}`);
  const last = named.pop();
  return `${named.join(", ")} and ${last} (GET ${routes.openapi.route.path} describes them)`;
}

// Paths under an Anthropic route (`/v1/messages/...`) keep the Anthropic envelope when unmatched.
const anthropicPaths = routeList
  .filter((spec) => spec.envelope === "anthropic")
  .map((spec) => spec.route.path);

/** Which envelope an unmatched request gets: Anthropic for Anthropic clients. */
export function envelopeFor(path: string, headers: Headers): Envelope {
  return anthropicPaths.some((prefix) => path.startsWith(prefix)) ||
      headers.has("anthropic-version")
    ? "anthropic"
    : "openai";
}

/** Middleware: 404 for unknown paths, 405 with `Allow` for a wrong method, 426 for a WebSocket
 * upgrade on a route that documents 426 (`/v1/responses`: Codex falls back to HTTP only on 426). */
export function routeGuard(): MiddlewareHandler<AppEnv> {
  const compiled = compile();
  const known = knownRoutes();
  return async function routeGuard(c, next) {
    const path = c.req.path;
    const entry = compiled.find((e) => e.pattern.test(path));
    if (!entry) {
      c.set("envelope", envelopeFor(path, c.req.raw.headers));
      const shown = `No route ${c.req.method} ${new URL(c.req.url).pathname}`;
      if (path.startsWith(`${API_PREFIX}${API_PREFIX}`)) {
        throw new GatewayError(
          "not_found",
          404,
          `${shown}: the path has ${API_PREFIX} twice. Set the client's base URL to the gatehouse ` +
            `root address, without ${API_PREFIX} (SDKs and clients add ${API_PREFIX} themselves).`,
          { code: "unknown_route" },
        );
      }
      throw new GatewayError("not_found", 404, `${shown}. The API routes are ${known}.`, {
        code: "unknown_route",
      });
    }
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    const spec = entry.methods.get(method);
    const any = spec ?? entry.methods.values().next().value!;
    c.set("envelope", any.envelope);
    if (!spec) {
      const allow = [...entry.methods.keys()].join(", ");
      if (426 in any.route.responses && c.req.header("upgrade")?.toLowerCase() === "websocket") {
        throw new GatewayError(
          "invalid_request",
          426,
          `This gateway does not serve ${any.route.path} over WebSocket: send ${allow} ` +
            `${any.route.path} over plain HTTP (for Codex, set supports_websockets = false in the ` +
            "provider table).",
          { code: "upgrade_required", headers: { allow, upgrade: "HTTP/1.1" } },
        );
      }
      throw new GatewayError(
        "method_not_allowed",
        405,
        `${path} takes ${allow} only, not ${c.req.method}.`,
        { code: "method_not_allowed", headers: { allow } },
      );
    }
    c.set("spec", spec);
    await next();
  };
}
