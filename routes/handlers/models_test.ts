import assert from "node:assert/strict";
import { makeHarness } from "../../tests/harness.ts";

/** The ids `GET /v1/models` lists for a key with `models` set to `patterns`, in both shapes. */
async function listedFor(patterns: string[]): Promise<{ openai: string[]; anthropic: string[] }> {
  const h = await makeHarness();
  try {
    const { key } = await h.deps.store.createKey({ name: "limited", policy: { models: patterns } });
    const auth = { authorization: `Bearer ${key}` };
    const openai = await (await h.request("/v1/models", { headers: auth })).json();
    const anthropic = await (await h.request("/v1/models?limit=1000", {
      headers: { ...auth, "anthropic-version": "2023-06-01" },
    })).json();
    const ids = (list: { data: { id: string }[] }) => list.data.map((m) => m.id).sort();
    return { openai: ids(openai), anthropic: ids(anthropic) };
  } finally {
    await h.close();
  }
}

Deno.test("GET /v1/models lists a model whose alias alone the key's models list names", async () => {
  const listed = await listedFor(["claude-opus"]);
  assert.deepEqual(listed.openai, ["claude-opus-5-5"]);
  assert.deepEqual(listed.anthropic, ["claude-opus-5-5"]);
});

Deno.test("GET /v1/models lists only what a glob allows", async () => {
  const listed = await listedFor(["claude-*"]);
  assert.ok(listed.openai.length >= 3, listed.openai.join());
  assert.ok(listed.openai.every((id) => id.startsWith("claude-")), listed.openai.join());
  assert.deepEqual(listed.anthropic, listed.openai);
});

Deno.test("GET /v1/models/{id} is 404 for a model the key may not call", async () => {
  const h = await makeHarness();
  try {
    const { key } = await h.deps.store.createKey({
      name: "limited",
      policy: { models: ["gpt-*"] },
    });
    const response = await h.request("/v1/models/claude-opus-5-5", {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(response.status, 404);
    await response.body?.cancel();
  } finally {
    await h.close();
  }
});
