/**
 * Model requests refused for their body — over GATEHOUSE_MAX_BODY (413), not JSON (400), against
 * the route's schema (400) — are refused before their handler opens a lifecycle, yet each writes
 * exactly one `rejected` row, like every model request. Requests refused before auth (401, an
 * unknown route, a wrong method) and refusals on other routes write none.
 */
import assert from "node:assert/strict";
import { IMAGES_STREAM_REFUSAL } from "../../routes/bodies.ts";
import { makeHarness } from "../harness.ts";

const MAX_BODY = 4096;
const harness = await makeHarness({ env: { GATEHOUSE_MAX_BODY: String(MAX_BODY) } });
const auth = { authorization: `Bearer ${harness.key}`, "content-type": "application/json" };

/** Each model route with a body that breaks its schema while naming a model. */
const ROUTES = [
  { path: "/v1/chat/completions", invalid: { model: "gpt-5", messages: "Hi" } },
  { path: "/v1/responses", invalid: { model: "gpt-5", input: 42 } },
  { path: "/v1/messages", invalid: { model: "claude-sonnet-5", messages: [] } },
  { path: "/v1/messages/count_tokens", invalid: { model: "claude-sonnet-5" } },
  { path: "/v1/images/generations", invalid: { model: "gpt-image-1", prompt: "" } },
];

/** The rows `send` wrote, after waiting long enough for a second one to show. */
async function rowsOf(send: () => Promise<Response>) {
  const before = harness.rows.length;
  const response = await send();
  await response.body?.cancel();
  await new Promise((resolve) => setTimeout(resolve, 30));
  return { response, rows: harness.rows.slice(before) };
}

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return () => harness.request(path, { method: "POST", headers: { ...auth, ...headers }, body });
}

for (const route of ROUTES) {
  const cases = [
    { what: "invalid JSON", body: '{"model": "gpt-5",', status: 400, model: "" },
    { what: "a JSON array", body: "[1]", status: 400, model: "" },
    {
      what: "a schema violation",
      body: JSON.stringify(route.invalid),
      status: 400,
      model: route.invalid.model,
    },
    {
      what: "a body over GATEHOUSE_MAX_BODY",
      body: JSON.stringify({ ...route.invalid, padding: "x".repeat(MAX_BODY) }),
      status: 413,
      model: "", // refused on its Content-Length, never read
    },
  ];
  for (const c of cases) {
    Deno.test(`${route.path}: ${c.what} → ${c.status}, one rejected row`, async () => {
      const id = `refusal-${crypto.randomUUID()}`;
      // app.request() sends no Content-Length of its own; a real client's is what 413 checks first.
      const length = String(new TextEncoder().encode(c.body).length);
      const headers = { "content-length": length, "x-request-id": id };
      const { response, rows } = await rowsOf(post(route.path, c.body, headers));
      assert.equal(response.status, c.status);
      assert.equal(rows.length, 1, "exactly one ledger row");
      const row = rows[0]!;
      assert.equal(row.outcome, "rejected");
      assert.equal(row.status, c.status);
      assert.equal(row.route, route.path);
      assert.equal(row.model, c.model);
      assert.equal(row.attempts, 0);
      assert.equal(row.requestId, id);
      assert.equal(row.cost, 0);
    });
  }
}

Deno.test("a bare twin's refusal is recorded on the canonical route", async () => {
  const { response, rows } = await rowsOf(post("/chat/completions", "{nope"));
  assert.equal(response.status, 400);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.route, "/v1/chat/completions");
});

Deno.test("a chunked body over GATEHOUSE_MAX_BODY is refused while read, one row", async () => {
  const chunks = [`{"model":"gpt-5","x":"`, "y".repeat(MAX_BODY), `"}`];
  const body = ReadableStream.from(chunks.map((chunk) => new TextEncoder().encode(chunk)));
  const { response, rows } = await rowsOf(() =>
    harness.request("/v1/chat/completions", { method: "POST", headers: auth, body })
  );
  assert.equal(response.status, 413);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.outcome, "rejected");
  assert.equal(rows[0]!.status, 413);
});

Deno.test("images: stream: true is refused with 400 naming the fix, one rejected row", async () => {
  const body = JSON.stringify({ model: "gpt-image-1", prompt: "an otter", stream: true });
  const before = harness.rows.length;
  const response = await post("/v1/images/generations", body)();
  assert.equal(response.status, 400);
  const error = (await response.json()).error;
  assert.equal(error.param, "stream");
  assert.match(error.message, /streaming image generation is not supported by this gateway/);
  assert.match(error.message, /drop `stream`/);
  assert.ok(error.message.includes(IMAGES_STREAM_REFUSAL));
  await new Promise((resolve) => setTimeout(resolve, 30));
  const rows = harness.rows.slice(before);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.outcome, "rejected");
  assert.equal(rows[0]!.model, "gpt-image-1");
  assert.equal(rows[0]!.stream, true);
  const document = await (await harness.request("/openapi.json")).json();
  assert.match(
    document.paths["/v1/images/generations"].post.description,
    /Streaming image generation is not supported/,
  );
});

Deno.test("images: stream: false is still served", async () => {
  const body = JSON.stringify({ model: "gpt-image-1", prompt: "an otter", stream: false });
  const { response, rows } = await rowsOf(post("/v1/images/generations", body));
  assert.equal(response.status, 200);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.outcome, "ok");
});

Deno.test("refusals before auth and on other routes write no row", async () => {
  const bad = "{nope";
  const cases: Array<[string, () => Promise<Response>, number]> = [
    ["no key", () => harness.request("/v1/chat/completions", { method: "POST", body: bad }), 401],
    [
      "unknown key, body too large",
      post("/v1/messages", "x".repeat(MAX_BODY + 1), { authorization: "Bearer gth_a_b" }),
      401,
    ],
    ["unknown route", post("/v1/nothing", bad), 404],
    ["wrong method", () => harness.request("/v1/responses", { headers: auth }), 405],
    ["usage, bad query", () => harness.request("/v1/usage?start=soon", { headers: auth }), 400],
  ];
  for (const [what, send, status] of cases) {
    const { response, rows } = await rowsOf(send);
    assert.equal(response.status, status, what);
    assert.equal(rows.length, 0, `${what}: no row`);
  }
});

Deno.test("refusals: close", async () => {
  await harness.close();
});
