/**
 * The OpenAPI 3.1 document, generated from the route table as registered on the app. Canonical
 * paths only; each operation names its bare twin in `x-gatehouse-bare-path`.
 * @module
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../routes/env.ts";

/** Package version shown in the document. */
export const GATEHOUSE_VERSION = "0.1.0";

/** Registers the security schemes and returns a memoized document builder. */
export function openApiDocument(app: OpenAPIHono<AppEnv>, publicBaseUrl: string | null) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "A gatehouse key (`deno task keys create --name NAME`), as `Authorization: Bearer <key>`.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKeyHeader", {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description:
      "The same gatehouse key as `x-api-key` (messages and models routes; what the Anthropic SDK sends).",
  });
  let cached: Record<string, unknown> | null = null;
  return function document(): Record<string, unknown> {
    cached ??= app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "gatehouse",
        version: GATEHOUSE_VERSION,
        description:
          "An LLM gateway: every catalog model answers on the OpenAI Chat Completions, OpenAI Responses and Anthropic Messages protocols. " +
          "Every /v1 route is also served bare (without /v1), as named by x-gatehouse-bare-path.",
        license: { name: "Apache-2.0", url: "https://www.apache.org/licenses/LICENSE-2.0" },
      },
      servers: [{ url: publicBaseUrl ?? "/", description: "The gateway root; SDKs add /v1." }],
      security: [{ bearerAuth: [] }],
    }) as unknown as Record<string, unknown>;
    return cached;
  };
}
