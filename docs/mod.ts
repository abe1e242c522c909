/**
 * The docs host: documentation pages, the OpenAPI document, Swagger UI and the client set-up
 * scripts, served on their own listener (`DOCS_PORT`).
 * @module
 */
export { createDocsApp, type DocsOptions } from "./app.ts";
export { DEFAULT_DOCS_PORT, type DocsConfig, readDocsConfig, readDocsPort } from "./config.ts";
export { type DocsServer, type StartDocsOptions, startDocsServer } from "./server.ts";
