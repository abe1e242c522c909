import assert from "node:assert/strict";
import { presentedKey } from "./auth.ts";
import { BEARER, BEARER_OR_API_KEY_HEADER, keySources, PUBLIC } from "./security.ts";
import { routeList } from "./table.ts";

Deno.test("key sources come from the security requirement", () => {
  assert.deepEqual(keySources(BEARER), { bearer: true, headers: [] });
  assert.deepEqual(keySources(BEARER_OR_API_KEY_HEADER), { bearer: true, headers: ["x-api-key"] });
  assert.deepEqual(keySources(PUBLIC), { bearer: false, headers: [] });
  assert.throws(() => keySources([{ basicAuth: [] }]), /unknown security scheme basicAuth/);
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
