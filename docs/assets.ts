/**
 * Static assets of the docs host: its stylesheet, the reference start-up script, and Swagger
 * UI's files read from the `swagger-ui-dist` npm package, so the reference works air-gapped.
 * @module
 */
import absolutePath from "swagger-ui-dist/absolute-path.js";
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
};

/** Reads assets on first use and keeps them. */
export function assetStore(): {
  own(name: string): Asset | null;
  swagger(name: string): Promise<Asset | null>;
} {
  const cache = new Map<string, Promise<Asset>>();
  return {
    own: (name) => OWN[name] ?? null,
    swagger(name) {
      const type = SWAGGER_FILES[name];
      if (type === undefined) return Promise.resolve(null);
      let entry = cache.get(name);
      if (entry === undefined) {
        entry = Deno.readFile(`${absolutePath()}/${name}`).then((body) => ({ body, type }));
        entry.catch(() => cache.delete(name));
        cache.set(name, entry);
      }
      return entry;
    },
  };
}
