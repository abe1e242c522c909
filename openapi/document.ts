/**
 * The OpenAPI 3.1 document, generated from the route table as registered on the app. Canonical
 * paths only; each operation names its bare twin in `x-gatehouse-bare-path`.
 * @module
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../routes/env.ts";
import { BEARER, SECURITY_SCHEMES } from "../routes/security.ts";
import { API_PREFIX, BARE_PATH_FIELD } from "../routes/table.ts";

/** Package version shown in the document. */
export const GATEHOUSE_VERSION = "0.1.0";

/** Registers the security schemes the route table names and returns a memoized document builder. */
export function openApiDocument(app: OpenAPIHono<AppEnv>, publicBaseUrl: string | null) {
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
    app.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
  }
  let cached: Record<string, unknown> | null = null;
  return function document(): Record<string, unknown> {
    cached ??= app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "gatehouse",
        version: GATEHOUSE_VERSION,
        description:
          "An LLM gateway: every catalog model answers on the OpenAI Chat Completions, OpenAI Responses and Anthropic Messages protocols. " +
          `Every ${API_PREFIX} route is also served bare (without ${API_PREFIX}), as named by ${BARE_PATH_FIELD}.`,
        license: { name: "Apache-2.0", url: "https://www.apache.org/licenses/LICENSE-2.0" },
      },
      servers: [{ url: publicBaseUrl ?? "/", description: "The gateway root; SDKs add /v1." }],
      security: BEARER,
    }) as unknown as Record<string, unknown>;
    return cached;
  };
}
