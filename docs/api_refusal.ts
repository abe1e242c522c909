/**
 * The docs host serves no API request: a `/v1/...` path or a bare API route (`/models`,
 * `/chat/completions`, ...) gets a JSON error, in the envelope the client parses, naming the
 * address the API answers on.
 * @module
 */
import { envelopeFor } from "../routes/guard.ts";
import { API_PREFIX, routeList } from "../routes/table.ts";

const BARE_HEADS = new Set(
  routeList.flatMap((spec) => spec.bare === null ? [] : [spec.bare.split("/")[1]!]),
);

function isCanonical(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/** Whether a docs-host path is an API path. */
export function isApiPath(path: string): boolean {
  if (isCanonical(path)) return true;
  const head = path.split("/")[1] ?? "";
  return BARE_HEADS.has(head);
}

/** The refusal: 404 with a message naming the API root and the address to use instead. */
export function apiRefusal(request: Request, path: string, search: string, api: string): Response {
  const canonical = isCanonical(path) ? path : `${API_PREFIX}${path}`;
  const message = `This is the gatehouse docs host; it serves no API requests. Send ` +
    `${request.method} ${canonical} to the API root ${api} instead: ${api}${canonical}${search}. ` +
    `Configure clients with the root ${api} (SDKs and clients add /v1 themselves; the OpenAI ` +
    `SDK's base URL is ${api}/v1).`;
  // The envelope the gateway itself would answer this path in.
  const body = envelopeFor(canonical, request.headers) === "anthropic"
    ? { type: "error", error: { type: "not_found_error", message } }
    : { error: { message, type: "invalid_request_error", param: null, code: "docs_host" } };
  return new Response(JSON.stringify(body), {
    status: 404,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}
