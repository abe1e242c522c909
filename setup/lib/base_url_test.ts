import assert from "node:assert/strict";
import { checkRoot, chooseBaseUrl } from "./base_url.mjs";

const served = {
  baseUrl: "https://api.example.com",
  docsUrl: "https://docs.example.com",
  altBaseUrl: "https://alt.example.com",
  altActive: false,
};

Deno.test("chooseBaseUrl: flag, then GATEHOUSE_BASE_URL, then the served root", () => {
  assert.deepEqual(chooseBaseUrl({ flag: "http://h:1/", alt: false, env: {}, served }), {
    url: "http://h:1",
    source: "--base-url",
  });
  assert.deepEqual(
    chooseBaseUrl({ flag: undefined, alt: false, env: { GATEHOUSE_BASE_URL: "http://e" }, served }),
    { url: "http://e", source: "GATEHOUSE_BASE_URL" },
  );
  assert.deepEqual(chooseBaseUrl({ flag: undefined, alt: false, env: {}, served }), {
    url: "https://api.example.com",
    source: "the docs host",
  });
  assert.throws(
    () =>
      chooseBaseUrl({ flag: undefined, alt: false, env: {}, served: { ...served, baseUrl: null } }),
    /no gateway address/,
  );
});

Deno.test("the alternative root is written only once active", () => {
  assert.throws(
    () => chooseBaseUrl({ flag: undefined, alt: true, env: {}, served }),
    /reserved but not active yet/,
  );
  assert.equal(
    chooseBaseUrl({ flag: undefined, alt: true, env: {}, served: { ...served, altActive: true } })
      .url,
    "https://alt.example.com",
  );
  assert.throws(
    () =>
      chooseBaseUrl({
        flag: undefined,
        alt: true,
        env: {},
        served: { ...served, altBaseUrl: null },
      }),
    /no alternative root/,
  );
});

Deno.test("checkRoot refuses /v1, non-http, queries and non-URLs, and says why", () => {
  assert.throws(
    () => checkRoot("https://api.example.com/v1", "--base-url"),
    /ends in \/v1: give the gateway root \(https:\/\/api\.example\.com\).*\/v1\/v1/,
  );
  assert.throws(() => checkRoot("https://api.example.com/v1/", "--base-url"), /ends in \/v1/);
  assert.throws(() => checkRoot("ftp://x", "--base-url"), /http:\/\/ or https:\/\//);
  assert.throws(() => checkRoot("https://x/?a=1", "--base-url"), /query/);
  assert.throws(() => checkRoot("api.example.com", "--base-url"), /is not a URL/);
  assert.equal(
    checkRoot("https://x.example.com/gatehouse/", "--base-url"),
    "https://x.example.com/gatehouse",
  );
});
