/**
 * Bare twins: `/models` is served as `/v1/models`. The path is rewritten before routing (Hono's
 * `getPath`), so each route is registered once.
 * @module
 */
import { API_PREFIX, routeList } from "./table.ts";

const API_DIR = `${API_PREFIX}/`;
const bareHeads = new Set(
  routeList.flatMap((spec) => spec.bare === null ? [] : [spec.bare.split("/")[1]!]),
);

/** The routing path of a request: bare API paths gain the `/v1` prefix; others are unchanged. */
export function routingPath(request: Request): string {
  const url = request.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  const path = query === -1 ? url.slice(start) : url.slice(start, query);
  if (path.startsWith(API_DIR) || path === API_PREFIX) return path;
  const second = path.indexOf("/", 1);
  const head = second === -1 ? path.slice(1) : path.slice(1, second);
  return bareHeads.has(head) ? `${API_PREFIX}${path}` : path;
}
