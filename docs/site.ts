/**
 * What every docs page is rendered from: the public addresses, the live catalog and the
 * OpenAPI document, plus the helpers pages share (links under the docs host's own path, the
 * set-up one-liners).
 * @module
 */
import type { Catalog } from "../catalog/catalog.ts";
import { openaiModelList } from "../catalog/listing.ts";
import type { OpenAIModelObject } from "../catalog/listing_schema.ts";
import type { SetupClient } from "../setup/bundle.ts";

/** How the docs host is built. */
export interface DocsOptions {
  /** The gateway's OpenAPI document (the same object `GET /openapi.json` serves). */
  document: () => Record<string, unknown>;
  /** The catalog the gateway serves. */
  catalog: Catalog;
  /** The API root clients use (`PUBLIC_BASE_URL`), without `/v1`. */
  publicBaseUrl: string;
  /** This host's public address (`DOCS_URL`). */
  docsUrl: string;
  /** The reserved alternative root (`ALT_BASE_URL`). */
  altBaseUrl?: string | null;
  /** Whether the alternative root answers yet (`ALT_BASE_URL_ACTIVE`, default false). */
  altActive?: boolean;
  /** The gateway in this process, which answers the `/admin/v1/...` requests the docs host
   * forwards for the dashboard; without it those paths are not found here. */
  adminApi?: (request: Request) => Response | Promise<Response>;
}

/** The rendering context of every page. */
export interface Site {
  /** The API root, without a trailing slash. */
  api: string;
  /** The docs host's address, without a trailing slash. */
  docs: string;
  /** The path the docs host is served under ("" at the root). */
  basePath: string;
  alt: { url: string; active: boolean } | null;
  catalog: Catalog;
  document: () => Record<string, unknown>;
  /** A link to a docs path, under `basePath`. */
  link(path: string): string;
  /** The listed models, as `GET /v1/models` shows them. */
  models(): OpenAIModelObject[];
  /** The `curl | sh` line of a client's set-up script. */
  oneLiner(client: SetupClient, args?: string): string;
}

/** Builds the context once per app; `models()` reads the catalog on every call. */
export function makeSite(options: DocsOptions): Site {
  const api = trimSlash(options.publicBaseUrl);
  const docs = trimSlash(options.docsUrl);
  const basePath = trimSlash(new URL(docs).pathname);
  return {
    api,
    docs,
    basePath,
    alt: options.altBaseUrl
      ? { url: trimSlash(options.altBaseUrl), active: options.altActive ?? false }
      : null,
    catalog: options.catalog,
    document: options.document,
    link: (path) => `${basePath}${path}`,
    models: () => openaiModelList(options.catalog).data,
    oneLiner: (client, args = "") =>
      `curl -fsSL ${docs}/setup/${client}.sh | sh${args ? ` -s -- ${args}` : ""}`,
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

/** The placeholder pages show where the user's key goes. */
export const KEY_PLACEHOLDER = "<your gatehouse key>";
