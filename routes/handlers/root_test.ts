/**
 * `GET /` through the app: the docs host's address with and without `DOCS_URL`.
 */
import assert from "node:assert/strict";
import { makeHarness } from "../../tests/harness.ts";

Deno.test("GET / names the docs host: DOCS_URL, else the request's host on DOCS_PORT", async () => {
  const docsOf = async (env: Record<string, string>, url: string) => {
    const gateway = await makeHarness({ env });
    try {
      return (await (await gateway.request(url)).json()).docs;
    } finally {
      await gateway.close();
    }
  };
  assert.equal(await docsOf({}, "http://gw.example:8080/"), "http://gw.example:8081");
  assert.equal(
    await docsOf({ DOCS_PORT: "9000" }, "http://10.0.0.5:8080/"),
    "http://10.0.0.5:9000",
  );
  assert.equal(await docsOf({ DOCS_PORT: "9000" }, "http://[::1]:8080/"), "http://[::1]:9000");
  assert.equal(
    await docsOf({ DOCS_URL: "https://docs.example.com/", DOCS_PORT: "9000" }, "http://gw:8080/"),
    "https://docs.example.com",
  );
  assert.equal(await docsOf({ DOCS_PORT: "off" }, "http://gw:8080/"), null);
});
