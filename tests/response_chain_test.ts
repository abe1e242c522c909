/**
 * `previous_response_id` on upstreams that keep no state: gatehouse keeps the chain per key.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { listen, makeHarness } from "./harness.ts";
import { startScriptedUpstream } from "./fakes/scripted_upstream.ts";

Deno.test("previous_response_id chains on a mock model, per key, not with store: false", async () => {
  const h = await makeHarness();
  const server = listen(h);
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: h.key, maxRetries: 0 });
    const first = await client.responses.create({ model: "gpt-5", input: "My name is Ada." });
    const second = await client.responses.stream({
      model: "claude-sonnet-5",
      input: "What is my name?",
      previous_response_id: first.id,
    }).finalResponse();
    assert.equal(second.status, "completed");
    const third = await client.responses.create({
      model: "gpt-5",
      input: "And now?",
      previous_response_id: second.id,
    });
    assert.equal(third.status, "completed");
    const other = await h.deps.store.createKey("other");
    const stranger = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: other.key, maxRetries: 0 });
    await assert.rejects(
      stranger.responses.create({ model: "gpt-5", input: "Hi", previous_response_id: first.id }),
      (e: { status: number; message: string }) => e.status === 404 && /not found/.test(e.message),
    );
    const unstored = await client.responses.create({
      model: "gpt-5",
      input: "Forget me",
      store: false,
    });
    await assert.rejects(
      client.responses.create({ model: "gpt-5", input: "Hi", previous_response_id: unstored.id }),
      (e: { status: number }) => e.status === 404,
    );
  } finally {
    await server.close();
    await h.close();
  }
});

Deno.test("a chained request reaches a stateless upstream with the whole history", async () => {
  const upstream = startScriptedUpstream();
  const h = await makeHarness({
    demo: false,
    env: { ANTHROPIC_API_KEY: "k", GATEHOUSE_ANTHROPIC_URL: upstream.url },
  });
  const server = listen(h);
  try {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: h.key, maxRetries: 0 });
    const first = await client.responses.create({
      model: "claude-sonnet-5",
      input: "Remember the word teapot.",
    });
    await client.responses.create({
      model: "claude-sonnet-5",
      input: "Which word?",
      previous_response_id: first.id,
    });
    const sent = upstream.requests.at(-1)!.body as {
      messages: Array<{ role: string; content: unknown }>;
    };
    assert.deepEqual(sent.messages.map((m) => m.role), ["user", "assistant", "user"]);
    assert.match(JSON.stringify(sent.messages[0]), /teapot/);
    assert.equal((sent as Record<string, unknown>).previous_response_id, undefined);
  } finally {
    await server.close();
    await upstream.close();
    await h.close();
  }
});
