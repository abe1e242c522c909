import assert from "node:assert/strict";
import { targetOf } from "./target.ts";

Deno.test("targetOf names the origin, the path with its query and the host header", () => {
  assert.deepEqual(targetOf("http://127.0.0.1:8080/v1/messages?beta=true"), {
    origin: { key: "http://127.0.0.1:8080", tls: false, hostname: "127.0.0.1", port: 8080 },
    path: "/v1/messages?beta=true",
    host: "127.0.0.1:8080",
  });
  const v6 = targetOf("https://[::1]/v1/responses");
  assert.deepEqual(v6.origin, { key: "https://[::1]:443", tls: true, hostname: "::1", port: 443 });
  assert.equal(v6.host, "[::1]");
  assert.equal(v6.path, "/v1/responses");
});

Deno.test("targetOf parses a URL once and stays bounded under many distinct URLs", () => {
  const url = "http://upstream.test/v1/chat/completions";
  const first = targetOf(url);
  assert.equal(targetOf(url), first);
  for (let i = 0; i < 1000; i++) targetOf(`http://upstream.test/v1/messages?n=${i}`);
  const again = targetOf(url);
  assert.notEqual(again, first, "the cache was cleared when it filled");
  assert.deepEqual(again, first);
});

Deno.test("targetOf refuses schemes the client does not speak", () => {
  assert.throws(() => targetOf("ftp://upstream.test/"), /speaks http: and https:/);
});
