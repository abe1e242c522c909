/**
 * Static assets of the docs host: its stylesheet, the reference start-up script, the
 * dashboard's script and stylesheet, Swagger UI's files read from the `swagger-ui-dist` npm
 * package and Chart.js's browser bundle read from the `chart.js` one, so the reference and the
 * dashboard work air-gapped.
 * @module
 */
import absolutePath from "swagger-ui-dist/absolute-path.js";
import { DASHBOARD_JS } from "./dashboard/script.ts";
import { DASHBOARD_CSS } from "./dashboard/style.ts";
import { REFERENCE_JS } from "./pages/reference.ts";
import { DOCS_CSS } from "./style.ts";

/** A served asset. */
export interface Asset {
  body: Uint8Array;
  type: string;
}

/** Swagger UI's files the reference page loads, by name. */
export const SWAGGER_FILES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

const encoder = new TextEncoder();
const OWN: Record<string, Asset> = {
  "docs.css": { body: encoder.encode(DOCS_CSS), type: "text/css; charset=utf-8" },
  "reference.js": { body: encoder.encode(REFERENCE_JS), type: "text/javascript; charset=utf-8" },
  "dashboard.js": { body: encoder.encode(DASHBOARD_JS), type: "text/javascript; charset=utf-8" },
  "dashboard.css": { body: encoder.encode(DASHBOARD_CSS), type: "text/css; charset=utf-8" },
};

/** Third-party browser files the dashboard loads, by name: where each is in its package. */
export const VENDOR_FILES: Record<string, { url: () => URL; type: string }> = {
  // chart.js exports no `dist/` subpath; its ESM entry (`chart.js/auto`) locates the package.
  "chart.umd.min.js": {
    url: () => new URL("../dist/chart.umd.min.js", import.meta.resolve("chart.js/auto")),
    type: "text/javascript; charset=utf-8",
  },
};

/** Reads assets on first use and keeps them. */
export function assetStore(): {
  own(name: string): Asset | null;
  swagger(name: string): Promise<Asset | null>;
  vendor(name: string): Promise<Asset | null>;
} {
  const cache = new Map<string, Promise<Asset>>();
  const read = (name: string, path: () => string | URL, type: string) => {
    let entry = cache.get(name);
    if (entry === undefined) {
      entry = Promise.resolve().then(() => Deno.readFile(path())).then((body) => ({ body, type }));
      entry.catch(() => cache.delete(name));
      cache.set(name, entry);
    }
    return entry;
  };
  return {
    own: (name) => OWN[name] ?? null,
    swagger(name) {
      const type = SWAGGER_FILES[name];
      if (type === undefined) return Promise.resolve(null);
      return read(name, () => `${absolutePath()}/${name}`, type);
    },
    vendor(name) {
      const file = VENDOR_FILES[name];
      if (file === undefined) return Promise.resolve(null);
      return read(`vendor/${name}`, file.url, file.type);
    },
  };
}
