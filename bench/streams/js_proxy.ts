/**
 * The floor of gatehouse's own architecture, for the streams bench (`--target=jsproxy`): each
 * request goes to the upstream over the gateway's HTTP/1.1 client (`http1/`), and the upstream's
 * body comes back through JavaScript as a `ReadableStream` of the chunks read off the socket,
 * untouched. No auth, no parsing, no ledger, no tap. Against the minimal proxy (whose `fetch`
 * body goes from socket to socket without JavaScript) it shows what bringing every chunk
 * through JavaScript costs in Deno; against gatehouse, what gatehouse adds to that. Prints
 * `{"port":N}` on stdout when it listens.
 *
 *   deno run -A bench/streams/js_proxy.ts http://127.0.0.1:UPSTREAM_PORT
 * @module
 */
import { announce, exitWithParent } from "../child.ts";
import { readerStream } from "../../core/chunk_reader.ts";
import { createHttp1Client } from "../../http1/client.ts";
import { bodyReaderOf } from "../../http1/response.ts";

/** A handler that forwards everything to `upstream` (a root such as `http://127.0.0.1:9000`). */
export function jsProxy(upstream: string): (request: Request) => Promise<Response> {
  const client = createHttp1Client();
  return async (request) => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.delete("host");
    const response = await client.fetch(upstream + url.pathname + url.search, {
      method: request.method,
      headers,
      body: new Uint8Array(await request.arrayBuffer()),
      signal: request.signal,
    });
    const reader = bodyReaderOf(response);
    return new Response(reader === null ? null : readerStream(reader), {
      status: response.status,
      headers: { "content-type": response.headers.get("content-type") ?? "" },
    });
  };
}

if (import.meta.main) {
  const upstream = Deno.args[0];
  if (upstream === undefined) {
    console.error("usage: deno run -A bench/streams/js_proxy.ts <upstream root URL>");
    Deno.exit(2);
  }
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => announce({ port }),
  }, jsProxy(upstream));
  await exitWithParent(() => server.shutdown());
}
