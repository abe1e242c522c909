/**
 * The OpenAPI document the docs host serves passes an independent validator, and a client
 * generator's output from it type-checks.
 */
import assert from "node:assert/strict";
import SwaggerParser from "@apidevtools/swagger-parser";
import openapiTS, { astToString } from "openapi-typescript";
import { createDocsApp } from "../../docs/mod.ts";
import { routeList } from "../../routes/table.ts";
import { makeHarness } from "../harness.ts";

const API = "https://api.gatehouse.example";

async function servedDocument(): Promise<Record<string, unknown>> {
  const h = await makeHarness();
  const document = await (await h.request("/openapi.json")).json();
  await h.close();
  const docs = createDocsApp({
    document: () => document,
    catalog: h.deps.catalog,
    publicBaseUrl: API,
    docsUrl: "https://docs.gatehouse.example",
  });
  return await (await docs.request("/openapi.json")).json();
}

Deno.test("@apidevtools/swagger-parser validates the document as OpenAPI 3.1", async () => {
  const document = await servedDocument();
  // deno-lint-ignore no-explicit-any
  const api = await SwaggerParser.validate(structuredClone(document) as any) as {
    openapi: string;
    paths: Record<string, unknown>;
    servers: { url: string }[];
  };
  assert.equal(api.openapi, "3.1.0");
  assert.deepEqual(api.servers.map((s) => s.url), [API]);
  for (const spec of routeList) assert.ok(spec.route.path.replace(/\{id\}/, "{id}") in api.paths);
});

Deno.test("openapi-typescript output from the document type-checks with deno check", async () => {
  const document = await servedDocument();
  // deno-lint-ignore no-explicit-any
  const source = astToString(await openapiTS(document as any));
  assert.match(source, /export interface paths/);
  const dir = await Deno.makeTempDir({ prefix: "gatehouse-openapi-ts-" });
  try {
    await Deno.writeTextFile(`${dir}/schema.d.ts`, source);
    await Deno.writeTextFile(
      `${dir}/use.ts`,
      `import type { components, operations, paths } from "./schema.d.ts";

type ModelList = paths["/v1/models"]["get"]["responses"][200]["content"]["application/json"];
type ChatBody = NonNullable<paths["/v1/chat/completions"]["post"]["requestBody"]>["content"]["application/json"];
type Model = components["schemas"]["OpenAIModel"];
type Usage = operations["getUsage"]["responses"][200]["content"]["application/json"];

export const model: Model["id"] = "gpt-5.5-large";
// @ts-expect-error an id is a string: the generated types are precise, not any
export const wrong: Model["id"] = 5;
export const chat: ChatBody["model"] = "gpt-5";
export function ids(list: ModelList): string[] {
  return "data" in list ? list.data.map((m) => m.id) : [];
}
export function requests(usage: Usage): number {
  return usage.totals.requests;
}
`,
    );
    const check = await new Deno.Command("deno", {
      args: ["check", "--quiet", `${dir}/use.ts`, `${dir}/schema.d.ts`],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const errors = new TextDecoder().decode(check.stderr);
    assert.equal(check.code, 0, errors);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
