/**
 * The front door through `app.request()`: error envelopes and their order, keys, body limits,
 * model lookup, listings, usage.
 */
import assert from "node:assert/strict";
import { makeHarness } from "./harness.ts";

const h = await makeHarness({ env: { GATEHOUSE_MAX_BODY: "4096" } });
const auth = { authorization: `Bearer ${h.key}` };
const chat = (model: string) => ({ model, messages: [{ role: "user", content: "hi" }] });

async function json(response: Response) {
  return { status: response.status, headers: response.headers, body: await response.json() };
}

Deno.test("401 names each key problem, in the route's envelope", async () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{}, /No API key/],
    [{ authorization: "Bearer " }, /empty key/],
    [{ authorization: "Basic abc" }, /another scheme/],
    [{ authorization: "Bearer gth_abc def" }, /whitespace or a line break/],
    [{ authorization: "Bearer <API_KEY>" }, /placeholder/],
    [{ authorization: "Bearer ${GATEHOUSE_KEY}" }, /placeholder/],
    [{ authorization: "Bearer gth_aaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb" }, /not valid/],
  ];
  for (const [headers, pattern] of cases) {
    const openai = await json(
      await h.request("/v1/chat/completions", { method: "POST", headers, json: chat("gpt-5") }),
    );
    assert.equal(openai.status, 401);
    assert.equal(openai.body.error.type, "authentication_error");
    assert.match(openai.body.error.message, pattern);
    const anthropic = await json(
      await h.request("/v1/messages", {
        method: "POST",
        headers,
        json: { ...chat("gpt-5"), max_tokens: 5 },
      }),
    );
    assert.equal(anthropic.status, 401);
    assert.equal(anthropic.body.type, "error");
    assert.equal(anthropic.body.error.type, "authentication_error");
    assert.match(anthropic.body.error.message, pattern);
  }
});

Deno.test("x-api-key is accepted on the messages routes, not on the OpenAI routes", async () => {
  const messages = await h.request("/v1/messages", {
    method: "POST",
    headers: { "x-api-key": h.key },
    json: { ...chat("gpt-5"), max_tokens: 50 },
  });
  assert.equal(messages.status, 200);
  await messages.body?.cancel();
  const openai = await h.request("/v1/chat/completions", {
    method: "POST",
    headers: { "x-api-key": h.key },
    json: chat("gpt-5"),
  });
  assert.equal(openai.status, 401);
  await openai.body?.cancel();
});

Deno.test("order: route errors before auth, auth before body, body before model", async () => {
  const bad = { authorization: "Bearer nope" };
  assert.equal((await json(await h.request("/v1/nothing", { headers: bad }))).status, 404);
  const get = await json(await h.request("/v1/messages", { headers: bad }));
  assert.equal(get.status, 405);
  assert.equal(get.headers.get("allow"), "POST");
  assert.equal(get.body.type, "error");
  assert.match(get.body.error.message, /takes POST only/);
  const unauthorizedBadBody = await h.request("/v1/chat/completions", {
    method: "POST",
    headers: { ...bad, "content-type": "application/json" },
    body: "{",
  });
  assert.equal(unauthorizedBadBody.status, 401);
  await unauthorizedBadBody.body?.cancel();
  const big = await json(
    await h.request("/v1/chat/completions", {
      method: "POST",
      headers: auth,
      json: { model: "nope", messages: [{ role: "user", content: "x".repeat(5000) }] },
    }),
  );
  assert.equal(big.status, 413);
  assert.match(big.body.error.message, /4096 bytes.*GATEHOUSE_MAX_BODY/);
  const invalid = await json(
    await h.request("/v1/chat/completions", {
      method: "POST",
      headers: auth,
      json: { model: "nope" },
    }),
  );
  assert.equal(invalid.status, 400);
  assert.match(invalid.body.error.message, /messages/);
  const missing = await json(
    await h.request("/v1/chat/completions", { method: "POST", headers: auth, json: chat("nope") }),
  );
  assert.equal(missing.status, 404);
  assert.equal(missing.body.error.code, "model_not_found");
  assert.match(missing.body.error.message, /"nope".*GET \/v1\/models/);
});

Deno.test("a chunked body over the limit is refused while reading", async () => {
  const enc = new TextEncoder();
  const body = ReadableStream.from([
    enc.encode('{"model":"gpt-5","messages":['),
    enc.encode(" ".repeat(5000)),
    enc.encode("]}"),
  ]);
  const response = await h.request("/v1/chat/completions", {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body,
  });
  assert.equal(response.status, 413);
  await response.body?.cancel();
});

Deno.test("doubled /v1 gets a 404 that explains the base URL", async () => {
  const r = await json(
    await h.request("/v1/v1/chat/completions", {
      method: "POST",
      headers: auth,
      json: chat("gpt-5"),
    }),
  );
  assert.equal(r.status, 404);
  assert.match(r.body.error.message, /without \/v1/);
});

Deno.test("malformed JSON and wrong content type are 400s that say so", async () => {
  const broken = await json(
    await h.request("/v1/messages", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: '{"model": ',
    }),
  );
  assert.equal(broken.status, 400);
  assert.equal(broken.body.error.type, "invalid_request_error");
  assert.match(broken.body.error.message, /not valid JSON/);
  const form = await json(
    await h.request("/v1/chat/completions", {
      method: "POST",
      headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
      body: "a=b",
    }),
  );
  assert.equal(form.status, 400);
  assert.match(form.body.error.message, /Content-Type: application\/json/);
});

Deno.test("unknown extra fields are accepted", async () => {
  const r = await h.request("/v1/chat/completions", {
    method: "POST",
    headers: auth,
    json: { ...chat("gpt-5"), some_future_field: { a: 1 } },
  });
  assert.equal(r.status, 200);
  await r.body?.cancel();
});

Deno.test("endpoint types are enforced both ways", async () => {
  const imageOnChat = await json(
    await h.request("/v1/chat/completions", {
      method: "POST",
      headers: auth,
      json: chat("gpt-image-1"),
    }),
  );
  assert.equal(imageOnChat.status, 400);
  assert.match(imageOnChat.body.error.message, /image-generation/);
  const chatOnImages = await json(
    await h.request("/v1/images/generations", {
      method: "POST",
      headers: auth,
      json: { model: "gpt-5", prompt: "x" },
    }),
  );
  assert.equal(chatOnImages.status, 400);
  assert.match(chatOnImages.body.error.message, /endpoint types/);
});

Deno.test("HEAD / and GET / answer 200 without a key; health probes too", async () => {
  const head = await h.request("/", { method: "HEAD" });
  assert.equal(head.status, 200);
  const root = await json(await h.request("/"));
  assert.equal(root.body.name, "gatehouse");
  assert.equal((await json(await h.request("/healthz"))).status, 200);
  assert.equal((await json(await h.request("/readyz"))).body.checks.store, "ok");
});

Deno.test("GET /v1/responses with a WebSocket upgrade is 426; plain GET is 405", async () => {
  const ws = await json(
    await h.request("/v1/responses", { headers: { upgrade: "websocket", connection: "Upgrade" } }),
  );
  assert.equal(ws.status, 426);
  assert.match(ws.body.error.message, /send POST \/v1\/responses over plain HTTP/);
  const plain = await json(await h.request("/responses"));
  assert.equal(plain.status, 405);
});

Deno.test("models: OpenAI shape, Anthropic shape with anthropic-version, aliases resolved", async () => {
  const list = await json(await h.request("/v1/models", { headers: auth }));
  assert.equal(list.body.object, "list");
  const ids = list.body.data.map((m: { id: string }) => m.id);
  assert.ok(ids.includes("gpt-5.5-large"));
  assert.ok(list.body.data.every((m: { owned_by: string }) => m.owned_by === "gatehouse-mock"));
  assert.ok(Array.isArray(list.body.patterns));
  assert.equal(list.body.setup_defaults.flagship, "gpt-5.5-large");
  const anthropic = await json(
    await h.request("/v1/models?limit=1000", {
      headers: { ...auth, "anthropic-version": "2023-06-01" },
    }),
  );
  assert.equal(anthropic.body.data[0].type, "model");
  assert.equal(typeof anthropic.body.has_more, "boolean");
  const outOfRange = await json(
    await h.request("/v1/models?limit=0", {
      headers: { ...auth, "anthropic-version": "2023-06-01" },
    }),
  );
  assert.equal(outOfRange.status, 400);
  const alias = await json(await h.request("/v1/models/gpt-5.5", { headers: auth }));
  assert.equal(alias.body.id, "gpt-5.5-large");
  assert.equal((await json(await h.request("/models/none", { headers: auth }))).status, 404);
});

Deno.test("usage report: totals and groups for the calling key only", async () => {
  const other = await h.deps.store.createKey("other");
  const r = await h.request("/v1/chat/completions", {
    method: "POST",
    headers: { authorization: `Bearer ${other.key}` },
    json: chat("gpt-5-mini"),
  });
  await r.text();
  const report = await json(
    await h.request("/v1/usage?group_by=model", {
      headers: { authorization: `Bearer ${other.key}` },
    }),
  );
  assert.equal(report.status, 200);
  assert.equal(report.body.totals.requests, 1);
  assert.ok(report.body.totals.input_tokens > 0);
  assert.ok(report.body.totals.cost > 0);
  assert.deepEqual(report.body.groups.map((g: { key: string }) => g.key), ["gpt-5-mini"]);
  const byDay = await json(
    await h.request("/usage?group_by=day&start=2020-01-01", {
      headers: { authorization: `Bearer ${other.key}` },
    }),
  );
  assert.match(byDay.body.groups[0].key, /^\d{4}-\d{2}-\d{2}$/);
  const bad = await json(await h.request("/v1/usage?start=yesterday", { headers: auth }));
  assert.equal(bad.status, 400);
});

Deno.test("a model whose provider has no credential is unlisted and answers 503 naming the variable", async () => {
  const real = await makeHarness({ demo: false });
  try {
    const list = await json(
      await real.request("/v1/models", { headers: { authorization: `Bearer ${real.key}` } }),
    );
    assert.equal(list.body.data.length, 0);
    const r = await json(
      await real.request("/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${real.key}` },
        json: chat("gpt-5"),
      }),
    );
    assert.equal(r.status, 503);
    assert.match(r.body.error.message, /OPENAI_API_KEY/);
  } finally {
    await real.close();
  }
});

Deno.test({ name: "routes: close", fn: () => h.close() });
