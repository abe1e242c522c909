/**
 * The docs host serves no API request: every API path, with /v1 or bare, gets a JSON error
 * naming the API root, in the envelope of the route's protocol.
 */
import assert from "node:assert/strict";
import { createDocsApp } from "../../docs/mod.ts";
import { isApiPath } from "../../docs/api_refusal.ts";
import { routeList } from "../../routes/table.ts";
import { makeHarness } from "../harness.ts";

const API = "https://api.gatehouse.example";

async function app() {
  const h = await makeHarness();
  await h.close();
  return createDocsApp({
    document: () => ({}),
    catalog: h.deps.catalog,
    publicBaseUrl: API,
    docsUrl: "https://docs.gatehouse.example",
  });
}

Deno.test("every API route of the table, with /v1 and bare, is refused with the API root", async () => {
  const docs = await app();
  const paths = routeList.flatMap((spec) => {
    const path = spec.route.path.replace("{id}", "gpt-5");
    const bare = spec.bare?.replace("{id}", "gpt-5");
    return path.startsWith("/v1") ? [[spec.route.method, path], [spec.route.method, bare!]] : [];
  });
  assert.ok(paths.length >= 16);
  for (const [method, path] of [...paths, ["get", "/v1"], ["get", "/v1/v1/models"]]) {
    const response = await docs.request(path!, {
      method: method!.toUpperCase(),
      headers: { authorization: "Bearer gth_x_y", "content-type": "application/json" },
      body: method === "post" ? "{}" : undefined,
    });
    assert.equal(response.status, 404, path);
    assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
    const body = await response.json();
    const canonical = path!.startsWith("/v1") ? path : `/v1${path}`;
    const message: string = body.error.message;
    assert.ok(message.includes(`the API root ${API}`), message);
    assert.ok(message.includes(`${API}${canonical}`), message);
    if (canonical!.startsWith("/v1/messages")) {
      assert.equal(body.type, "error");
      assert.equal(body.error.type, "not_found_error");
    } else {
      assert.equal(body.error.code, "docs_host");
    }
  }
});

Deno.test("docs paths are not API paths; the query survives into the suggested address", async () => {
  for (
    const path of [
      "/",
      "/catalog",
      "/clients/codex",
      "/reference",
      "/setup/codex.sh",
      "/assets/docs.css",
    ]
  ) {
    assert.equal(isApiPath(path), false, path);
  }
  const docs = await app();
  const response = await docs.request("/models?limit=5", {
    headers: { "anthropic-version": "2023-06-01" },
  });
  const body = await response.json();
  assert.equal(body.type, "error");
  assert.ok(body.error.message.includes(`${API}/v1/models?limit=5`));
});
