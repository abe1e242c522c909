/**
 * The route guard through the app: its 404 names the table's routes.
 */
import assert from "node:assert/strict";
import { makeHarness } from "../tests/harness.ts";
import { routeList, routes } from "./table.ts";

Deno.test("the 404 for an unknown path names every canonical API route of the table", async () => {
  const h = await makeHarness();
  const response = await h.request("/v1/nothing", {
    headers: { authorization: `Bearer ${h.key}` },
  });
  const r = { status: response.status, body: await response.json() };
  await h.close();
  assert.equal(r.status, 404);
  assert.equal(r.body.error.code, "unknown_route");
  const message: string = r.body.error.message;
  const canonical = routeList.filter((spec) => spec.bare !== null);
  assert.ok(canonical.length >= 8);
  for (const spec of canonical) {
    assert.ok(message.includes(`${spec.route.method.toUpperCase()} ${spec.route.path}`), message);
  }
  assert.ok(message.includes(routes.openapi.route.path), message);
});
