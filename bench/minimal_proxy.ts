/**
 * The baseline: the least a Deno reverse proxy can do. Each request goes to the upstream with its
 * method, headers and body stream; the upstream's response (status, headers, body stream) comes
 * back as it is. No auth, no parsing, no ledger. Prints `{"port":N}` on stdout when it listens.
 *
 *   deno run -A bench/minimal_proxy.ts http://127.0.0.1:UPSTREAM_PORT
 * @module
 */
import { announce, exitWithParent } from "./child.ts";

/** A handler that forwards everything to `upstream` (a root such as `http://127.0.0.1:9000`). */
export function minimalProxy(upstream: string): (request: Request) => Promise<Response> {
  return (request) => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    // The upstream is another host; fetch sets its own Host and Content-Length.
    headers.delete("host");
    return fetch(upstream + url.pathname + url.search, {
      method: request.method,
      headers,
      body: request.body,
    });
  };
}

if (import.meta.main) {
  const upstream = Deno.args[0];
  if (upstream === undefined) {
    console.error("usage: deno run -A bench/minimal_proxy.ts <upstream root URL>");
    Deno.exit(2);
  }
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => announce({ port }),
  }, minimalProxy(upstream));
  await exitWithParent(() => server.shutdown());
}
