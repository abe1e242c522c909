/**
 * The docs host: a Hono app serving the documentation pages, the OpenAPI document, Swagger UI's
 * assets, the set-up scripts and the dashboard — refusing every model API path with a JSON
 * error that names the API root, and forwarding the admin API (`/admin/v1/...`, the dashboard's
 * only source) to the gateway in this process.
 * @module
 */
import { Hono } from "hono";
import { apiRefusal, isApiPath } from "./api_refusal.ts";
import { assetStore } from "./assets.ts";
import { DASHBOARD_CSP, dashboardPage } from "./dashboard/page.ts";
import { html } from "./html.ts";
import { layout, NAV } from "./layout.ts";
import { PAGES } from "./pages/mod.ts";
import { setupScripts } from "./setup_routes.ts";
import { type DocsOptions, makeSite, type Site } from "./site.ts";

export type { DocsOptions } from "./site.ts";

const PAGE_CSP = "default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self' data:; " +
  "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
// Swagger UI sets style attributes and fetches the document from this host.
const REFERENCE_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
  "form-action 'none'; frame-ancestors 'none'";

/** Builds the docs host app. */
export function createDocsApp(options: DocsOptions): Hono {
  const site = makeSite(options);
  const assets = assetStore();
  const scripts = setupScripts(site);
  const app = new Hono({ getPath: (request) => docsPath(request, site.basePath) });

  app.use("*", async (c, next) => {
    const path = docsPath(c.req.raw, site.basePath);
    if (isApiPath(path)) {
      const url = new URL(c.req.url);
      return apiRefusal(c.req.raw, path, url.search, site.api);
    }
    if (options.adminApi && isAdminPath(path)) {
      return await options.adminApi(forwarded(c.req.raw, path));
    }
    await next();
    c.header("x-content-type-options", "nosniff");
    c.header("referrer-policy", "no-referrer");
  });

  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/openapi.json", (c) => {
    c.header("access-control-allow-origin", "*");
    c.header("cache-control", "no-cache");
    return c.json(documentForDocs(site));
  });
  app.get("/assets/swagger-ui-dist/:name", async (c) => {
    const asset = await assets.swagger(c.req.param("name"));
    if (asset === null) return notFound(site, c.req.path);
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      "content-type": asset.type,
      "cache-control": "public, max-age=86400",
    });
  });
  app.get("/assets/vendor/:name", async (c) => {
    const asset = await assets.vendor(c.req.param("name"));
    if (asset === null) return notFound(site, c.req.path);
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      "content-type": asset.type,
      "cache-control": "public, max-age=86400",
    });
  });
  app.get("/assets/:name", (c) => {
    const asset = assets.own(c.req.param("name"));
    if (asset === null) return notFound(site, c.req.path);
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      "content-type": asset.type,
      "cache-control": "public, max-age=3600",
    });
  });
  app.get("/setup/:name", async (c) => {
    const script = await scripts(c.req.param("name"));
    if (script === null) return notFound(site, c.req.path);
    return c.body(script.body, 200, { "content-type": script.type, "cache-control": "no-cache" });
  });
  for (const page of PAGES) {
    app.get(page.path, (c) => {
      const body = layout(site, {
        path: page.path,
        title: page.title,
        body: page.render(site),
        head: page.head?.(site),
      });
      return c.html(body, 200, {
        "content-security-policy": page.head ? REFERENCE_CSP : PAGE_CSP,
        "cache-control": "no-cache",
      });
    });
  }
  app.get("/dashboard", (c) =>
    c.html(dashboardPage(site), 200, {
      "content-security-policy": DASHBOARD_CSP,
      "cache-control": "no-cache",
    }));
  app.notFound((c) => notFound(site, c.req.path));
  return app;
}

/** Whether a docs-host path is the admin API's (the dashboard's calls). */
function isAdminPath(path: string): boolean {
  return path === "/admin/v1" || path.startsWith("/admin/v1/");
}

/** `request` as the gateway expects it: the same method, headers and body at the admin path
 * without the docs host's base path. The gateway applies its own authentication: the docs host
 * adds no credential and no CORS header (the dashboard calls from the same origin). */
function forwarded(request: Request, path: string): Request {
  const url = new URL(request.url);
  return new Request(new URL(`${path}${url.search}`, url), request);
}

/** The request path with the docs host's base path (from `DOCS_URL`) removed when present, so
 * the app answers whether or not a proxy strips it. */
function docsPath(request: Request, basePath: string): string {
  const url = request.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  const path = query === -1 ? url.slice(start) : url.slice(start, query);
  if (basePath !== "" && (path === basePath || path.startsWith(`${basePath}/`))) {
    return path.slice(basePath.length) || "/";
  }
  return path;
}

/** The gateway's document with `servers` naming the API root (and the alternative root once
 * active), never this host. */
function documentForDocs(site: Site): Record<string, unknown> {
  const servers = [{ url: site.api, description: "The gateway root; SDKs add /v1." }];
  if (site.alt?.active) servers.push({ url: site.alt.url, description: "The alternative root." });
  return { ...site.document(), servers };
}

function notFound(site: Site, path: string): Response {
  const body = layout(site, {
    path,
    title: "Page not found",
    body: html`
      <p>Nothing is served at <code>${path}</code> here. The pages:</p>
      <ul>${NAV.flatMap((group) => group.items).map((item) =>
        html`<li><a href="${site.link(item.path)}">${item.label}</a></li>`
      )}</ul>
      <p>API requests go to <code>${site.api}</code>, not to this docs host.</p>
    `,
  });
  return new Response(body, {
    status: 404,
    headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": PAGE_CSP },
  });
}
