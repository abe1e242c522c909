import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { loadChunks, loadJsonText, splitStreams } from "./fixtures.ts";
import { startRecordedUpstream } from "./recorded_upstream.ts";
import { frameEvents } from "./sse_replay.ts";

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

Deno.test("recorded upstream: streamed and JSON answers are byte-for-byte the recordings", async () => {
  const upstream = startRecordedUpstream();
  try {
    upstream.use({ folder: "openai-chat", name: "xai-tool-call" });
    const sse = await post(upstream.url + "/v1/chat/completions", { stream: true });
    assert.equal(sse.headers.get("content-type"), "text/event-stream; charset=utf-8");
    const chunks = await loadChunks("openai-chat", "xai-tool-call");
    assert.equal(await sse.text(), frameEvents("chat", chunks).join(""));
    assert.ok(frameEvents("chat", chunks).at(-1) === "data: [DONE]\n\n");

    upstream.use({ folder: "anthropic-messages", name: "anthropic-text" });
    const named = await post(upstream.url + "/v1/messages", { stream: true });
    const text = await named.text();
    assert.ok(text.startsWith('event: message_start\ndata: {"type":"message_start"'));
    assert.ok(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n'));

    upstream.use({ folder: "openai-responses", name: "openai-reasoning-encrypted-content.1" });
    const json = await post(upstream.url + "/v1/responses", { stream: false });
    assert.equal(
      json.headers.get("x-fake-fixture"),
      "openai-responses/openai-reasoning-encrypted-content.1.json",
    );
    assert.equal(
      await json.text(),
      await loadJsonText("openai-responses", "openai-reasoning-encrypted-content.1"),
    );
  } finally {
    await upstream.close();
  }
});

Deno.test("recorded upstream: loud 500s for no selection, wrong path, missing file, used-up parts", async () => {
  const upstream = startRecordedUpstream();
  try {
    const none = await post(upstream.url + "/v1/messages", {});
    assert.equal(none.status, 500);
    assert.match(await none.text(), /no fixture selected.*use\(\)/);

    upstream.use({ folder: "anthropic-messages", name: "anthropic-text" });
    const wrong = await post(upstream.url + "/v1/chat/completions", {});
    assert.equal(wrong.status, 500);
    assert.match(await wrong.text(), /answers \/messages, but the request went to \/v1\/chat/);

    upstream.use({ folder: "anthropic-messages", name: "anthropic-message-delta-input-tokens" });
    const noJson = await post(upstream.url + "/v1/messages", { stream: false });
    assert.equal(noJson.status, 500);
    assert.match(await noJson.text(), /has no \.json/);

    upstream.use({
      folder: "anthropic-messages",
      name: "anthropic-claude-opus-5-reasoning-high.1",
    });
    const fallback = await post(upstream.url + "/v1/messages", { stream: true });
    assert.equal(fallback.headers.get("content-type"), "application/json");
    assert.equal(fallback.status, 200);
    assert.equal((await fallback.json()).id, "msg_011CdMNhurHSJCxCC2NB7WYc");

    const name = "openai-reasoning-encrypted-content.1";
    const parts = splitStreams(await loadChunks("openai-responses", name));
    assert.equal(parts.length, 4);
    upstream.use({ folder: "openai-responses", name });
    for (const [index] of parts.entries()) {
      const res = await post(upstream.url + "/v1/responses", { stream: true });
      assert.equal(
        res.headers.get("x-fake-fixture"),
        `openai-responses/${name}.chunks.txt#${index}`,
      );
      await res.body?.cancel();
    }
    const usedUp = await post(upstream.url + "/v1/responses", { stream: true });
    assert.equal(usedUp.status, 500);
    assert.match(await usedUp.text(), /holds 4 stream\(s\); part 4 does not exist/);

    const get = await fetch(upstream.url + "/");
    assert.equal(get.status, 404);
    await get.body?.cancel();
    assert.equal(upstream.requests.length, 10);
    assert.equal(upstream.requests[0]?.method, "POST");
    assert.deepEqual(upstream.requests[0]?.body, {});
  } finally {
    await upstream.close();
  }
});

Deno.test("recorded upstream: stream flag override and status override", async () => {
  const upstream = startRecordedUpstream();
  try {
    upstream.use({ folder: "openai-chat", name: "openai-text", stream: true, status: 503 });
    const forced = await post(upstream.url + "/v1/chat/completions", {});
    assert.equal(forced.headers.get("content-type"), "text/event-stream; charset=utf-8");
    await forced.body?.cancel();
    upstream.use({ folder: "openai-chat", name: "openai-text", stream: false, status: 503 });
    const json = await post(upstream.url + "/v1/chat/completions", { stream: true });
    assert.equal(json.status, 503);
    await json.body?.cancel();
  } finally {
    await upstream.close();
  }
});

Deno.test("recorded upstream: count_tokens is ceil(body bytes / 4) through the Anthropic SDK", async () => {
  const upstream = startRecordedUpstream();
  const client = new Anthropic({ baseURL: upstream.url, apiKey: "x", maxRetries: 0 });
  try {
    const counted = await client.messages.countTokens({
      model: "claude-test",
      messages: [{ role: "user", content: "count me, please" }],
    });
    const raw = upstream.requests[0]?.rawBody ?? "";
    assert.equal(upstream.requests[0]?.path, "/v1/messages/count_tokens");
    assert.equal(counted.input_tokens, Math.ceil(new TextEncoder().encode(raw).length / 4));
  } finally {
    await upstream.close();
  }
});

Deno.test("recorded upstream: simulated 429 with retry-after reaches the SDK, then clears", async () => {
  const failure = {
    status: 429,
    body: { error: { message: "slow down", type: "rate_limit_error", code: "rate_limit" } },
    headers: { "retry-after": "7" },
  };
  const upstream = startRecordedUpstream({ failure });
  const client = new OpenAI({ baseURL: upstream.url + "/v1", apiKey: "x", maxRetries: 0 });
  try {
    upstream.use({ folder: "openai-chat", name: "openai-text" });
    const params = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };
    await assert.rejects(client.chat.completions.create(params), (e: unknown) => {
      assert.ok(e instanceof OpenAI.RateLimitError);
      assert.equal(e.headers.get("retry-after"), "7");
      assert.match(e.message, /slow down/);
      return true;
    });
    upstream.fail(undefined);
    const ok = await client.chat.completions.create(params);
    assert.equal(ok.id, "chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU");
    upstream.fail({ status: 502, body: "<html>bad gateway</html>" });
    const raw = await post(upstream.url + "/v1/chat/completions", {});
    assert.equal(raw.status, 502);
    assert.equal(await raw.text(), "<html>bad gateway</html>");
  } finally {
    await upstream.close();
  }
});

Deno.test("recorded upstream: hangAfterChunks sends n events, a client abort is counted", async () => {
  const upstream = startRecordedUpstream({ hangAfterChunks: 3 });
  try {
    upstream.use({ folder: "anthropic-messages", name: "anthropic-text" });
    const controller = new AbortController();
    const response = await fetch(upstream.url + "/v1/messages", {
      method: "POST",
      body: JSON.stringify({ stream: true }),
      signal: controller.signal,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while ((text.match(/\n\n/g) ?? []).length < 3) {
      const { value, done } = await reader.read();
      assert.equal(done, false, "the stream must not finish");
      text += value;
    }
    assert.deepEqual([...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]), [
      "message_start",
      "content_block_start",
      "ping",
    ]);
    assert.equal(upstream.aborted, 0);
    controller.abort();
    await reader.closed.catch(() => {});
    for (let i = 0; i < 100 && upstream.aborted === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(upstream.aborted, 1);
  } finally {
    await upstream.close();
  }
});

Deno.test("recorded upstream: close() ends a stream that is still hanging", async () => {
  const upstream = startRecordedUpstream();
  upstream.use({ folder: "openai-chat", name: "openai-text", hangAfterChunks: 1 });
  const response = await post(upstream.url + "/v1/chat/completions", { stream: true });
  const reading = response.text();
  await upstream.close();
  const [first] = await loadChunks("openai-chat", "openai-text");
  assert.equal(await reading, `data: ${first}\n\n`);
  assert.equal(upstream.aborted, 0);
});

Deno.test("recorded upstream: delayed, byte-split replay still parses in the SDK", async () => {
  const upstream = startRecordedUpstream({ splitBytes: true, delayMs: 2 });
  const client = new Anthropic({ baseURL: upstream.url, apiKey: "x", maxRetries: 0 });
  try {
    upstream.use({ folder: "anthropic-messages", name: "anthropic-clear-thinking.1" });
    const started = performance.now();
    const message = await client.messages
      .stream({ model: "m", max_tokens: 5, messages: [{ role: "user", content: "hi" }] })
      .finalMessage();
    assert.ok(performance.now() - started >= 2 * 20);
    assert.deepEqual(message.content.map((b) => b.type), ["thinking", "text"]);
    const text = message.content[1];
    assert.equal(text?.type === "text" ? text.text : "", "925 ÷ 5 = 185");
  } finally {
    await upstream.close();
  }
});
