import assert from "node:assert/strict";
import { presentedKey } from "./auth.ts";
import {
  ADMIN,
  BEARER,
  BEARER_OR_API_KEY_HEADER,
  keySources,
  PUBLIC,
  requiresAdmin,
} from "./security.ts";
import { routeList } from "./table.ts";

Deno.test("key sources come from the security requirement", () => {
  assert.deepEqual(keySources(BEARER), { bearer: true, headers: [], adminOnly: false });
  assert.deepEqual(keySources(BEARER_OR_API_KEY_HEADER), {
    bearer: true,
    headers: ["x-api-key"],
    adminOnly: false,
  });
  assert.deepEqual(keySources(PUBLIC), { bearer: false, headers: [], adminOnly: false });
  assert.deepEqual(keySources(ADMIN), { bearer: true, headers: [], adminOnly: true });
  assert.throws(() => keySources([{ basicAuth: [] }]), /unknown security scheme basicAuth/);
  assert.throws(() => keySources([{ bearerAuth: ["root"] }]), /unknown role root/);
});

Deno.test("a route requires an admin key when every alternative names the admin role", () => {
  assert.equal(requiresAdmin(ADMIN), true);
  assert.equal(requiresAdmin([{ bearerAuth: ["admin"] }, { apiKeyHeader: ["admin"] }]), true);
  assert.equal(requiresAdmin([{ bearerAuth: ["admin"], apiKeyHeader: [] }]), true);
  for (const security of [BEARER, BEARER_OR_API_KEY_HEADER, PUBLIC]) {
    assert.equal(requiresAdmin(security), false);
  }
  assert.throws(
    () => requiresAdmin([{ bearerAuth: ["admin"] }, { apiKeyHeader: [] }]),
    /every alternative/,
  );
});

Deno.test("the admin rows and /metrics, and only they, take admin keys only", () => {
  const admin = routeList.filter((spec) => requiresAdmin(spec.route.security));
  assert.ok(admin.length >= 12);
  for (const spec of routeList) {
    const path = spec.route.path;
    // `/metrics` sits where scrapers look for it, outside the admin prefix.
    assert.equal(
      requiresAdmin(spec.route.security),
      path.startsWith("/admin/") || path === "/metrics",
    );
  }
});

Deno.test("every row's security names only declared schemes", () => {
  for (const spec of routeList) keySources(spec.route.security);
});

Deno.test("presentedKey reads only the headers the sources allow, and names them", () => {
  const headers = new Headers({ "x-api-key": "gth_a_b" });
  assert.deepEqual(presentedKey(headers, keySources(BEARER_OR_API_KEY_HEADER)), {
    key: "gth_a_b",
  });
  const bearerOnly = presentedKey(headers, keySources(BEARER));
  assert.ok("problem" in bearerOnly);
  assert.equal(
    bearerOnly.problem,
    "No API key: send Authorization: Bearer <key> with a gatehouse key.",
  );
  const either = presentedKey(new Headers(), keySources(BEARER_OR_API_KEY_HEADER));
  assert.ok("problem" in either);
  assert.match(either.problem, /Authorization: Bearer <key> or x-api-key: <key>/);
  const empty = presentedKey(
    new Headers({ "x-api-key": "" }),
    keySources(BEARER_OR_API_KEY_HEADER),
  );
  assert.ok("problem" in empty);
  assert.match(empty.problem, /^The x-api-key header carries an empty key/);
});

Deno.test("presentedKey: a well-formed key whose id starts with xxx is a key, not a placeholder", () => {
  const sources = keySources(BEARER_OR_API_KEY_HEADER);
  const real = `gth_xxxabcdefg_${"A1b2".repeat(8)}`;
  assert.deepEqual(presentedKey(new Headers({ "x-api-key": real }), sources), { key: real });
  const placeholder = presentedKey(new Headers({ "x-api-key": "gth_xxxxxxxx" }), sources);
  assert.ok("problem" in placeholder);
  assert.match(placeholder.problem, /placeholder/);
});
