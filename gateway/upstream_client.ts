/**
 * The upstream client a gateway instance uses, chosen by `GatewayConfig.upstreamClient`.
 * @module
 */
import { createHttp1Client, type UpstreamFetch } from "../http1/client.ts";
import type { UpstreamClientKind } from "./config.ts";

/** An upstream client and what releases its pooled connections. */
export interface UpstreamClient {
  fetch: UpstreamFetch;
  close(): void;
}

/** The pooled HTTP/1.1 client, or the runtime's `fetch` (whose pool the runtime owns). */
export function createUpstreamClient(kind: UpstreamClientKind): UpstreamClient {
  switch (kind) {
    case "http1":
      return createHttp1Client();
    case "fetch":
      return { fetch: globalThis.fetch, close: () => {} };
    default: {
      const never: never = kind;
      throw new Error(`unknown upstream client ${never}`);
    }
  }
}
