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

Deno.test("reliability settings default to the documented values", () => {
  const config = readGatewayConfig(envOf({}));
  assert.equal(config.retries, 2);
  assert.equal(config.connectTimeoutMs, 10_000);
  assert.equal(config.cooldownMs, 30_000);
  assert.equal(config.cooldownFailures, 3);
  assert.equal(config.drainMs, 30_000);
});

Deno.test("reliability settings are read, seconds stored as ms", () => {
  const config = readGatewayConfig(envOf({
    GATEHOUSE_RETRIES: "0",
    GATEHOUSE_CONNECT_TIMEOUT_MS: "2500",
    GATEHOUSE_COOLDOWN_SECONDS: "1.5",
    GATEHOUSE_COOLDOWN_FAILURES: "1",
    GATEHOUSE_DRAIN_SECONDS: "0",
  }));
  assert.equal(config.retries, 0);
  assert.equal(config.connectTimeoutMs, 2500);
  assert.equal(config.cooldownMs, 1500);
  assert.equal(config.cooldownFailures, 1);
  assert.equal(config.drainMs, 0);
  assert.equal(readGatewayConfig(envOf({ GATEHOUSE_RETRIES: "5" })).retries, 5);
  assert.equal(readGatewayConfig(envOf({ GATEHOUSE_RETRIES: "" })).retries, 2);
});

Deno.test("bad reliability settings are refused, naming the variable", () => {
  const refused: [string, string, RegExp][] = [
    ["GATEHOUSE_RETRIES", "1.5", /GATEHOUSE_RETRIES="1.5" is not a non-negative integer/],
    ["GATEHOUSE_RETRIES", "-1", /GATEHOUSE_RETRIES="-1" is not a non-negative integer/],
    ["GATEHOUSE_RETRIES", "two", /GATEHOUSE_RETRIES="two" is not a non-negative integer/],
    ["GATEHOUSE_RETRIES", "1e2", /GATEHOUSE_RETRIES="1e2" is not a non-negative integer/],
    ["GATEHOUSE_COOLDOWN_FAILURES", "0", /GATEHOUSE_COOLDOWN_FAILURES="0" is not a positive/],
    ["GATEHOUSE_COOLDOWN_FAILURES", "2.5", /GATEHOUSE_COOLDOWN_FAILURES="2.5" is not a positive/],
    ["GATEHOUSE_CONNECT_TIMEOUT_MS", "0", /GATEHOUSE_CONNECT_TIMEOUT_MS="0" is not a positive/],
    ["GATEHOUSE_CONNECT_TIMEOUT_MS", "soon", /GATEHOUSE_CONNECT_TIMEOUT_MS="soon"/],
    ["GATEHOUSE_COOLDOWN_SECONDS", "-5", /GATEHOUSE_COOLDOWN_SECONDS="-5" is not a non-negative/],
    ["GATEHOUSE_DRAIN_SECONDS", "forever", /GATEHOUSE_DRAIN_SECONDS="forever"/],
  ];
  for (const [name, value, message] of refused) {
    assert.throws(() => readGatewayConfig(envOf({ [name]: value })), message);
  }
});
