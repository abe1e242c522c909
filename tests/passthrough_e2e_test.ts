/**
 * Same-protocol forwarding end to end: the official SDKs talk to a running gateway whose
 * providers are a fake upstream replaying the recorded transcripts.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { listen, makeHarness, resetHealth, upstreamEnv } from "./harness.ts";
import { startRecordedUpstream } from "./fakes/recorded_upstream.ts";
import { loadChunks, loadJson } from "./fakes/fixtures.ts";

const upstream = startRecordedUpstream();
const h = await makeHarness({
  demo: false,
  // One attempt per request: these tests are about what one answer becomes (retries are in
  // tests/reliability/).
  env: { ...upstreamEnv(upstream.url), GATEHOUSE_RETRIES: "0" },
});
const server = listen(h);
const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: h.key, maxRetries: 0 });
const anthropic = new Anthropic({ baseURL: server.url, apiKey: h.key, maxRetries: 0 });
const last = () => upstream.requests[upstream.requests.length - 1]!;

/** Posts `text` as a chat request, reads the whole answer, and returns the body the upstream
 * got. */
async function chatThrough(text: string): Promise<string> {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
    body: text,
  });
  assert.equal(response.status, 200);
  await response.text();
  return last().rawBody;
}

async function ledger() {
  const r = await fetch(`${server.url}/v1/usage?group_by=model`, {
    headers: { authorization: `Bearer ${h.key}` },
  });
  return await r.json();
}

Deno.test("chat passthrough, streamed: bytes relayed, model rewritten, upstream key swapped, usage chunk hidden", async () => {
  upstream.use({ folder: "openai-chat", name: "openai-text", stream: true });
  const stream = openai.chat.completions.stream({
    model: "gpt-5",
    messages: [{ role: "user", content: "Hi" }],
  });
  const chunks: unknown[] = [];
  stream.on("chunk", (c) => chunks.push(c));
  const final = await stream.finalChatCompletion();
  const recorded = (await loadChunks("openai-chat", "openai-text")).map((l) => JSON.parse(l));
  const text = recorded.map((c) => c.choices?.[0]?.delta?.content ?? "").join("");
  assert.equal(final.choices[0]!.message.content, text);
  const sent = last();
  assert.equal((sent.body as { model: string }).model, "gpt-5");
  assert.deepEqual((sent.body as { stream_options: unknown }).stream_options, {
    include_usage: true,
  });
  assert.equal(sent.headers["authorization"], "Bearer sk-upstream-openai");
  const usageChunks = recorded.filter((c) =>
    Array.isArray(c.choices) && c.choices.length === 0 && c.usage
  );
  assert.equal(chunks.length, recorded.length - usageChunks.length);
});

Deno.test("chat passthrough: a client that asks for usage gets the usage chunk", async () => {
  upstream.use({ folder: "openai-chat", name: "openai-text", stream: true });
  const stream = openai.chat.completions.stream({
    model: "gpt-5",
    messages: [{ role: "user", content: "Hi" }],
    stream_options: { include_usage: true },
  });
  const final = await stream.finalChatCompletion();
  assert.ok(final.usage && final.usage.completion_tokens > 0);
});

Deno.test("chat passthrough, not streamed, is the recorded body", async () => {
  upstream.use({ folder: "openai-chat", name: "xai-tool-call", stream: false });
  const completion = await openai.chat.completions.create({
    model: "gpt-5",
    messages: [{ role: "user", content: "Hi" }],
  });
  const recorded = await loadJson("openai-chat", "xai-tool-call") as {
    choices: Array<{ message: unknown }>;
  };
  assert.deepEqual(completion.choices[0]!.message, recorded.choices[0]!.message);
});

Deno.test("passthrough forwards the client's own bytes, only the model's value replaced", async () => {
  upstream.use({ folder: "anthropic-messages", name: "anthropic-text", stream: false });
  // An alias: the upstream id differs from the name the client sent.
  const upstreamId = h.deps.catalog.resolve("claude-sonnet")!.upstreamId;
  assert.notEqual(upstreamId, "claude-sonnet");
  const text = `{ "messages" : [ {"content":"caf\\u00e9 \\"model\\"","role":"user"} ],\n` +
    `  "max_tokens": 1.0e2, "model":  "claude-sonnet", "metadata": {"user_id": "model"} }`;
  const response = await fetch(`${server.url}/v1/messages`, {
    method: "POST",
    headers: {
      "x-api-key": h.key,
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
    },
    body: text,
  });
  assert.equal(response.status, 200);
  await response.body?.cancel();
  assert.equal(last().rawBody, text.replace('"claude-sonnet"', JSON.stringify(upstreamId)));
});

Deno.test("chat stream passthrough forwards the client's own bytes with stream_options added in front", async () => {
  upstream.use({ folder: "openai-chat", name: "openai-text", stream: true });
  const upstreamId = h.deps.catalog.resolve("gpt-5")!.upstreamId;
  const text = `{"messages": [{"role": "user", "content": "caf\\u00e9"}], "stream": true,\n` +
    `  "temperature": 1.0, "model": "gpt-5"}`;
  assert.equal(
    await chatThrough(text),
    '{"stream_options":{"include_usage":true},' +
      text.slice(1).replace('"gpt-5"', JSON.stringify(upstreamId)),
  );
});

Deno.test("a large body is forwarded as the client's own bytes too, non-ASCII text and all", async () => {
  upstream.use({ folder: "openai-chat", name: "openai-text", stream: true });
  const upstreamId = h.deps.catalog.resolve("gpt-5")!.upstreamId;
  // Over routes/body.ts's 16 KiB: the gateway splices the bytes it read instead of encoding
  // the text again. The model after the long part, where the Python SDK writes it.
  // Literal non-ASCII characters, and escapes (a quote, a backslash, a newline, \u00e9).
  const file = JSON.stringify('// größer → café 🚀 "quoted" \\\n'.repeat(800))
    .replaceAll("café", "caf\\u00e9");
  const text = `{"messages": [{"role": "user", "content": ${file}}], "stream": true,\n` +
    `  "model" : "gpt-5", "temperature": 1.0}`;
  assert.ok(new TextEncoder().encode(text).length > 32 * 1024);
  // What the gateway hands its upstream client: bytes, not text (the text path would send the
  // same body, so only this tells the two apart).
  const sent: string[] = [];
  const fetchUpstream = h.deps.fetch;
  h.deps.fetch = (url, init) => {
    sent.push(init.body instanceof Uint8Array ? "bytes" : typeof init.body);
    return fetchUpstream(url, init);
  };
  let received: string;
  try {
    received = await chatThrough(text);
  } finally {
    h.deps.fetch = fetchUpstream;
  }
  assert.deepEqual(sent, ["bytes"]);
  assert.equal(
    received,
    '{"stream_options":{"include_usage":true},' +
      text.slice(1).replace('"gpt-5"', JSON.stringify(upstreamId)),
  );
});

for (
  const name of [
    "anthropic-text",
    "anthropic-json-tool.1",
    "anthropic-tool-no-args",
    "anthropic-clear-thinking.1",
  ]
) {
  Deno.test(`messages passthrough streams ${name} through messages.stream().finalMessage()`, async () => {
    upstream.use({ folder: "anthropic-messages", name, stream: true });
    const message = await anthropic.messages.stream({
      model: "claude-sonnet-5",
      max_tokens: 100,
      messages: [{ role: "user", content: "Hi" }],
    }).finalMessage();
    const lines = (await loadChunks("anthropic-messages", name)).map((l) => JSON.parse(l));
    const start = lines.find((l) => l.type === "message_start");
    assert.equal(message.id, start.message.id);
    const delta = lines.filter((l) => l.type === "message_delta").at(-1);
    assert.equal(message.stop_reason, delta.delta.stop_reason);
    const sent = last();
    assert.equal(sent.headers["x-api-key"], "sk-ant-upstream");
    assert.equal(sent.headers["authorization"], undefined);
    assert.ok(sent.headers["anthropic-version"]);
  });
}

Deno.test("messages passthrough keeps ?beta=true and anthropic-beta", async () => {
  upstream.use({ folder: "anthropic-messages", name: "anthropic-text", stream: false });
  const r = await fetch(`${server.url}/v1/messages?beta=true`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${h.key}`,
      "content-type": "application/json",
      "anthropic-version": "2023-06-01",
      "anthropic-beta": "context-management-2025-06-27",
    },
    body: JSON.stringify({
      model: "claude-haiku-4-5",
      max_tokens: 10,
      messages: [{ role: "user", content: "Hi" }],
    }),
  });
  assert.equal(r.status, 200);
  assert.deepEqual(await r.json(), await loadJson("anthropic-messages", "anthropic-text"));
  const sent = last();
  assert.equal(sent.search, "?beta=true");
  assert.equal(sent.headers["anthropic-beta"], "context-management-2025-06-27");
  assert.equal((sent.body as { model: string }).model, "claude-haiku-4-5-20251001");
});

Deno.test("responses passthrough streams and not", async () => {
  upstream.use({ folder: "openai-responses", name: "openai-custom-tool.1", stream: true });
  const response = await openai.responses.stream({ model: "gpt-5.5", input: "Hi" }).finalResponse();
  const lines = (await loadChunks("openai-responses", "openai-custom-tool.1")).map((l) =>
    JSON.parse(l)
  );
  assert.equal(response.id, lines[0].response.id);
  assert.ok(response.output.some((o) => o.type === "custom_tool_call"));
  upstream.use({ folder: "openai-responses", name: "openai-local-shell-tool.1", stream: false });
  const plain = await openai.responses.create({ model: "gpt-5.5-large", input: "Hi" });
  const recorded = await loadJson("openai-responses", "openai-local-shell-tool.1") as {
    id: string;
  };
  assert.equal(plain.id, recorded.id);
  assert.equal((last().body as { model: string }).model, "gpt-5.5-large");
});

Deno.test("images passthrough, and an upstream error reaches the client with its status and body", async () => {
  upstream.use({ folder: "openai-images", name: "openai-image" });
  const images = await openai.images.generate({ model: "gpt-image-1", prompt: "an otter", n: 2 });
  assert.equal(images.data?.length, 2);
  upstream.use({ folder: "openai-images", name: "gpt-image-response-format-error", status: 400 });
  const r = await fetch(`${server.url}/images/generations`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-image-1", prompt: "x", response_format: "url" }),
  });
  assert.equal(r.status, 400);
  assert.deepEqual(
    await r.json(),
    await loadJson("openai-images", "gpt-image-response-format-error"),
  );
});

Deno.test("an upstream 401 becomes a 502 naming the provider, no key fragment; a 429 keeps its retry headers", async () => {
  upstream.fail({
    status: 401,
    body: {
      error: {
        message: "Incorrect API key provided: sk-proj-****abcd. You can find your API key at ...",
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    },
  });
  const r401 = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-5", messages: [{ role: "user", content: "Hi" }] }),
  });
  assert.equal(r401.status, 502);
  const text = await r401.text();
  assert.match(JSON.parse(text).error.message, /Provider "openai".*credential/);
  assert.doesNotMatch(text, /sk-proj|abcd|Incorrect API key|invalid_api_key/);
  upstream.fail({
    status: 429,
    body: { type: "error", error: { type: "rate_limit_error", message: "slow down" } },
    headers: { "retry-after": "7", "retry-after-ms": "6500", "x-should-retry": "true" },
  });
  const r429 = await fetch(`${server.url}/v1/messages`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: "claude-sonnet-5",
      max_tokens: 5,
      messages: [{ role: "user", content: "Hi" }],
    }),
  });
  assert.equal(r429.status, 429);
  assert.equal(r429.headers.get("retry-after"), "7");
  assert.equal(r429.headers.get("retry-after-ms"), "6500");
  assert.equal(r429.headers.get("x-should-retry"), "true");
  assert.equal((await r429.json()).error.type, "rate_limit_error");
  // The 429's retry-after cooled the deployment down; the next tests need it back.
  resetHealth(h);
  upstream.fail(undefined);
});

Deno.test("count_tokens goes to the Anthropic upstream for Claude models and is local for others", async () => {
  const claude = await anthropic.messages.countTokens({
    model: "claude-sonnet-5",
    messages: [{ role: "user", content: "Hello there" }],
  });
  assert.equal(last().path, "/v1/messages/count_tokens");
  assert.ok(claude.input_tokens > 0);
  const before = upstream.requests.length;
  const gpt = await anthropic.messages.countTokens({
    model: "gpt-5",
    messages: [{ role: "user", content: "Hello there" }],
  });
  assert.equal(upstream.requests.length, before);
  assert.ok(gpt.input_tokens > 2 && gpt.input_tokens < 20);
});

Deno.test("a client that disconnects mid-stream aborts the upstream request and is still in the ledger", async () => {
  upstream.use({ folder: "openai-chat", name: "openai-text", stream: true, hangAfterChunks: 3 });
  const before = upstream.aborted;
  const controller = new AbortController();
  const r = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: "gpt-5-mini",
      stream: true,
      messages: [{ role: "user", content: "Hi" }],
    }),
    signal: controller.signal,
  });
  const reader = r.body!.getReader();
  await reader.read();
  controller.abort();
  await reader.cancel().catch(() => {});
  for (let i = 0; i < 50 && upstream.aborted === before; i++) {
    await new Promise((res) => setTimeout(res, 20));
  }
  assert.equal(upstream.aborted, before + 1);
  const report = await ledger();
  assert.ok(report.groups.some((g: { key: string }) => g.key === "gpt-5-mini"));
});

Deno.test("every request is in the ledger with tokens from the tapped streams", async () => {
  const report = await ledger();
  const gpt5 = report.groups.find((g: { key: string }) => g.key === "gpt-5");
  assert.ok(gpt5.requests >= 3);
  assert.ok(gpt5.output_tokens > 0);
  const claude = report.groups.find((g: { key: string }) => g.key === "claude-sonnet-5");
  assert.ok(claude.input_tokens > 0);
});

Deno.test({
  name: "passthrough e2e: close",
  fn: async () => {
    await server.close();
    await upstream.close();
    await h.close();
  },
});
