/**
 * `models`: a key limited to `gpt-5*` calls the GPT-5 family on every protocol (passthrough and
 * translated) and gets 403 `permission_error`, in the route's envelope, for any other model;
 * aliases resolve before the check; `count_tokens` is checked too; `GET /v1/models` lists only
 * what the key may call, in the OpenAI and in the Anthropic shape.
 */
import assert from "node:assert/strict";
import { bodyFor, envelopeOf, startGov, type Wire, WIRES } from "./gov_kit.ts";

const gov = await startGov();
const gpt5 = await gov.key({ models: ["gpt-5*"] });

/** The model each wire calls by passthrough when allowed (gpt-5 on chat, gpt-5.5 on the
 * Responses wire) or by translation (messages → chat). */
const ALLOWED: Record<Wire, string[]> = {
  chat: ["gpt-5", "gpt-5-mini", "gpt-5.5-large"],
  messages: ["gpt-5", "gpt-5-mini"],
  responses: ["gpt-5.5-large", "gpt-5.5-small", "gpt-5"],
};

for (const wire of WIRES) {
  Deno.test(`${wire}: a gpt-5* key calls the GPT-5 family, and an alias of it`, async () => {
    for (const model of [...ALLOWED[wire], "gpt-5.5"]) {
      const response = await gov.send(wire, gpt5.secret, bodyFor(wire, model));
      assert.equal(response.status, 200, model);
      await response.json();
    }
  });

  Deno.test(`${wire}: a gpt-5* key gets 403 permission_error for any other model`, async () => {
    const before = gov.rows(gpt5.id).length;
    for (const model of ["claude-sonnet-5", "claude-opus", "gpt-6"]) {
      const response = await gov.send(wire, gpt5.secret, bodyFor(wire, model, { stream: true }));
      assert.equal(response.status, 403, model);
      const body = await response.json();
      const error = envelopeOf(wire, body);
      assert.equal(error.type, "permission_error");
      if (wire === "messages") assert.deepEqual(Object.keys(body), ["type", "error"]);
      else assert.equal(error.code, "model_not_allowed");
      assert.match(
        error.message,
        /is not allowed for this key: the key's policy allows only gpt-5\*/,
      );
    }
    const rows = gov.rows(gpt5.id).slice(before);
    assert.deepEqual(rows.map((row) => [row.outcome, row.status, row.attempts]), [
      ["rejected", 403, 0],
      ["rejected", 403, 0],
      ["rejected", 403, 0],
    ]);
    // The alias was resolved first: the refusal names both it and its catalog id.
    assert.equal(rows[1]!.model, "claude-opus-5-5");
  });
}

Deno.test("models: an alias resolves before the check, both ways", async () => {
  const sonnet = await gov.key({ models: ["claude-sonnet-5"] });
  const allowed = await gov.send("messages", sonnet.secret, bodyFor("messages", "claude-sonnet"));
  assert.equal(allowed.status, 200, "the alias claude-sonnet is claude-sonnet-5");
  await allowed.json();
  const refused = await gov.send("chat", sonnet.secret, bodyFor("chat", "claude-opus"));
  assert.equal(refused.status, 403);
  assert.match(
    envelopeOf("chat", await refused.json()).message,
    /Model "claude-opus" \(catalog id "claude-opus-5-5"\) is not allowed/,
  );
});

Deno.test("models: a list naming only an alias allows the model by its catalog id too", async () => {
  const opus = await gov.key({ models: ["claude-opus"] });
  for (const model of ["claude-opus", "claude-opus-5-5"]) {
    const response = await gov.send("messages", opus.secret, bodyFor("messages", model));
    assert.equal(response.status, 200, model);
    await response.json();
  }
  const other = await gov.send("messages", opus.secret, bodyFor("messages", "claude-sonnet-5"));
  assert.equal(other.status, 403);
  await other.json();
});

Deno.test("models: count_tokens is held to the key's models", async () => {
  const path = "/v1/messages/count_tokens";
  const call = (model: string) =>
    fetch(`${gov.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${gpt5.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "Hi" }] }),
    });
  const refused = await call("claude-sonnet-5");
  assert.equal(refused.status, 403);
  assert.equal(envelopeOf("anthropic", await refused.json()).type, "permission_error");
  const counted = await call("gpt-5");
  assert.equal(counted.status, 200);
  assert.ok((await counted.json()).input_tokens > 0);
});

Deno.test("models: GET /v1/models lists only the allowed models, in both shapes", async () => {
  const ids = async (secret: string, headers: Record<string, string> = {}) => {
    const response = await gov.get("/v1/models?limit=1000", secret, headers);
    assert.equal(response.status, 200);
    return (await response.json()).data as Array<{ id: string; type?: string; object?: string }>;
  };
  const everything = (await ids(gov.h.key)).map((m) => m.id);
  const expected = everything.filter((id) => id.startsWith("gpt-5"));
  assert.ok(expected.includes("gpt-5") && expected.includes("gpt-5.5-large"));
  assert.ok(everything.includes("claude-sonnet-5"), "an unlimited key sees every model");

  const openai = await ids(gpt5.secret);
  assert.deepEqual(openai.map((m) => m.id), expected);
  assert.ok(openai.every((m) => m.object === "model"));
  const anthropic = await ids(gpt5.secret, { "anthropic-version": "2023-06-01" });
  assert.deepEqual(anthropic.map((m) => m.id).sort(), [...expected].sort());
  assert.ok(anthropic.every((m) => m.type === "model"));

  // The pattern beside the list (claude-*) is not the key's either.
  const patterns = async (secret: string) =>
    (await (await gov.get("/v1/models", secret)).json()).patterns.map(
      (p: { pattern: string }) => p.pattern,
    );
  assert.deepEqual(await patterns(gov.h.key), ["claude-*"]);
  assert.deepEqual(await patterns(gpt5.secret), []);

  // One model by id: an allowed one is found, another is not there for this key.
  assert.equal((await gov.get("/v1/models/gpt-5", gpt5.secret)).status, 200);
  const hidden = await gov.get("/v1/models/claude-sonnet-5", gpt5.secret);
  assert.equal(hidden.status, 404);
  await hidden.body?.cancel();
});

Deno.test("models: close", async () => {
  await gov.close();
});
