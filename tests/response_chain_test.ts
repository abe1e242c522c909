/**
 * `previous_response_id` on upstreams that keep no state: gatehouse keeps the chain per key.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { listen, makeHarness } from "./harness.ts";
import { startScriptedUpstream } from "./fakes/scripted_upstream.ts";
import { startFakeServer } from "./fakes/fake_server.ts";

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

Deno.test("an upstream that repeats its message id: two keys each get their own response and chain", async () => {
  // OpenAI-compatible and Anthropic-like servers that number their answers badly exist; so do
  // retries that replay an answer. This one answers every request with the same id.
  const upstream = startFakeServer("repeating upstream", (request) =>
    Response.json({
      id: "msg_repeated",
      type: "message",
      role: "assistant",
      model: (request.body as { model?: string }).model,
      content: [{ type: "text", text: "Hello." }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 3, output_tokens: 2 },
    }));
  const h = await makeHarness({
    demo: false,
    env: { ANTHROPIC_API_KEY: "k", GATEHOUSE_ANTHROPIC_URL: upstream.url },
  });
  const server = listen(h);
  try {
    const other = await h.deps.store.createKey("other");
    const clients = [h.key, other.key].map((apiKey) =>
      new OpenAI({ baseURL: `${server.url}/v1`, apiKey, maxRetries: 0 })
    );
    const answers: OpenAI.Responses.Response[] = [];
    for (const client of clients) {
      answers.push(await client.responses.create({ model: "claude-sonnet-5", input: "Hi" }));
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
    const [a, b] = [h.rows.at(-2)!, h.rows.at(-1)!];
    assert.equal(a.upstreamId, b.upstreamId, "the upstream repeated its id");
    assert.equal(a.upstreamId, "msg_repeated");
    assert.notEqual(answers[0]!.id, answers[1]!.id);
    for (const answer of answers) assert.doesNotMatch(answer.id, new RegExp(a.upstreamId!));
    for (const [i, client] of clients.entries()) {
      const next: OpenAI.Responses.Response = await client.responses.create({
        model: "claude-sonnet-5",
        input: "Again",
        previous_response_id: answers[i]!.id,
      });
      assert.equal(next.status, "completed");
    }
  } finally {
    await server.close();
    await h.close();
    await upstream.close();
  }
});
