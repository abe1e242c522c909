import assert from "node:assert/strict";
import { parseSize, readGatewayConfig } from "./config.ts";

const envOf = (values: Record<string, string>) => (name: string) => values[name];

Deno.test("readGatewayConfig defaults", () => {
  const config = readGatewayConfig(envOf({}));
  assert.equal(config.maxBody, 32 * 1024 * 1024);
  assert.equal(config.upstreamTimeoutMs, 600_000);
  assert.equal(config.upstreamClient, "http1");
  assert.equal(config.publicBaseUrl, null);
});

Deno.test("the upstream client is fetch when a proxy variable is set, unless named", () => {
  for (const name of ["HTTPS_PROXY", "http_proxy", "ALL_PROXY"]) {
    assert.equal(readGatewayConfig(envOf({ [name]: "http://proxy:3128" })).upstreamClient, "fetch");
  }
  const both = envOf({ HTTPS_PROXY: "http://proxy:3128", GATEHOUSE_UPSTREAM_CLIENT: "http1" });
  assert.equal(readGatewayConfig(both).upstreamClient, "http1");
  assert.equal(
    readGatewayConfig(envOf({ GATEHOUSE_UPSTREAM_CLIENT: "fetch" })).upstreamClient,
    "fetch",
  );
  assert.throws(
    () => readGatewayConfig(envOf({ GATEHOUSE_UPSTREAM_CLIENT: "curl" })),
    /GATEHOUSE_UPSTREAM_CLIENT="curl" is not one of: http1, fetch/,
  );
});

Deno.test("sizes and numbers are checked, naming the variable", () => {
  assert.equal(parseSize("500kb"), 500 * 1024);
  assert.equal(parseSize("2 MiB"), 2 * 1024 * 1024);
  assert.equal(parseSize("lots"), null);
  assert.throws(
    () => readGatewayConfig(envOf({ GATEHOUSE_MAX_BODY: "lots" })),
    /GATEHOUSE_MAX_BODY/,
  );
  assert.throws(
    () => readGatewayConfig(envOf({ GATEHOUSE_UPSTREAM_TIMEOUT_MS: "-1" })),
    /GATEHOUSE_UPSTREAM_TIMEOUT_MS="-1" is not a non-negative number/,
  );
  assert.equal(
    readGatewayConfig(envOf({ PUBLIC_BASE_URL: "https://gw.example.com/" })).publicBaseUrl,
    "https://gw.example.com",
  );
});
