/**
 * The route guard: runs before auth so that a wrong path or method is a route error (404, 405,
 * 426) whatever the key, and picks the error envelope for everything after it.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { GatewayError } from "../core/errors.ts";
import { type Envelope, routeList, type RouteSpec } from "./table.ts";
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

/** Which envelope an unmatched request gets: Anthropic for Anthropic clients. */
export function envelopeFor(path: string, headers: Headers): Envelope {
  return path.startsWith("/v1/messages") || headers.has("anthropic-version")
    ? "anthropic"
    : "openai";
}

/** Middleware: 404 for unknown paths, 405 with `Allow` for a wrong method, 426 for a WebSocket
 * upgrade on `/v1/responses` (Codex falls back to HTTP only on 426). */
export function routeGuard(): MiddlewareHandler<AppEnv> {
  const compiled = compile();
  return async function routeGuard(c, next) {
    const path = c.req.path;
    const entry = compiled.find((e) => e.pattern.test(path));
    if (!entry) {
      c.set("envelope", envelopeFor(path, c.req.raw.headers));
      if (path.startsWith("/v1/v1")) {
        throw new GatewayError(
          "not_found",
          404,
          `No route ${c.req.method} ${new URL(c.req.url).pathname}: the path has /v1 twice. ` +
            "Set the client's base URL to the gatehouse root address, without /v1 (SDKs and clients add /v1 themselves).",
          { code: "unknown_route" },
        );
      }
      throw new GatewayError(
        "not_found",
        404,
        `No route ${c.req.method} ${
          new URL(c.req.url).pathname
        }. The API routes are /v1/models, /v1/chat/completions, ` +
          "/v1/responses, /v1/messages, /v1/messages/count_tokens, /v1/images/generations and /v1/usage (GET /openapi.json describes them).",
        { code: "unknown_route" },
      );
    }
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    const spec = entry.methods.get(method);
    const any = spec ?? entry.methods.values().next().value!;
    c.set("envelope", any.envelope);
    if (!spec) {
      const allow = [...entry.methods.keys()].join(", ");
      if (path === "/v1/responses" && c.req.header("upgrade")?.toLowerCase() === "websocket") {
        throw new GatewayError(
          "invalid_request",
          426,
          "This gateway does not serve Responses over WebSocket: send POST /v1/responses over plain HTTP " +
            "(for Codex, set supports_websockets = false in the provider table).",
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
