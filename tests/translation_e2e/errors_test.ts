/**
 * Errors across protocols: an upstream HTTP failure reaches the client in the client's own
 * envelope (429 keeps `retry-after`, 401 becomes a 502 naming the provider, 400 stays 400), and a
 * stream that fails or stops half way ends with the client protocol's error event, never with a
 * silent, clean-looking end.
 */
import assert from "node:assert/strict";
import { lastRequest, readEvents, sseAnswer, startRig, startScriptedUpstream } from "./helpers.ts";

const CLAUDE = "claude-sonnet-5";
const GPT = "gpt-5";

const upstream = startScriptedUpstream();
const rig = await startRig(upstream.url);

const chatBody = (stream: boolean) => ({
  model: CLAUDE,
  max_completion_tokens: 64,
  stream,
  messages: [{ role: "user", content: "Hi" }],
});
const messagesBody = (stream: boolean) => ({
  model: GPT,
  max_tokens: 64,
  stream,
  messages: [{ role: "user", content: "Hi" }],
});

const anthropicError = (type: string, message: string) => ({
  type: "error",
  error: { type, message },
});
const openaiError = (type: string, message: string, code: string | null = null) => ({
  error: { message, type, param: null, code },
});

function fail(status: number, body: unknown, headers: Record<string, string> = {}) {
  upstream.answer(() => Response.json(body, { status, headers }));
}

for (const stream of [false, true]) {
  const how = stream ? "streamed" : "not streamed";

  Deno.test(`chat client, Anthropic upstream, ${how}: 429 keeps retry-after in the OpenAI envelope`, async () => {
    fail(429, anthropicError("rate_limit_error", "Number of requests exceeded"), {
      "retry-after": "7",
    });
    const r = await rig.post("/v1/chat/completions", chatBody(stream));
    assert.equal(r.status, 429);
    assert.equal(r.headers.get("retry-after"), "7");
    const body = await r.json();
    assert.equal(body.error.type, "rate_limit_error");
    assert.match(body.error.message, /Number of requests exceeded/);
    assert.equal(lastRequest(upstream).path, "/v1/messages");
  });

  Deno.test(`messages client, chat upstream, ${how}: 429 keeps retry-after in the Anthropic envelope`, async () => {
    fail(429, openaiError("requests", "Rate limit reached for gpt-5", "rate_limit_exceeded"), {
      "retry-after": "3",
    });
    const r = await rig.post("/v1/messages", messagesBody(stream));
    assert.equal(r.status, 429);
    assert.equal(r.headers.get("retry-after"), "3");
    const body = await r.json();
    assert.equal(body.type, "error");
    assert.equal(body.error.type, "rate_limit_error");
    assert.match(body.error.message, /Rate limit reached/);
    assert.equal(lastRequest(upstream).path, "/v1/chat/completions");
  });
}

Deno.test("chat client, Anthropic upstream: 401 becomes 502 naming the provider, via the SDK too", async () => {
  fail(401, anthropicError("authentication_error", "invalid x-api-key"));
  const r = await rig.post("/v1/chat/completions", chatBody(false));
  assert.equal(r.status, 502);
  const body = await r.json();
  assert.match(body.error.message, /Provider "anthropic".*credential/);
  assert.equal(typeof body.error.type, "string");
  await assert.rejects(
    rig.openai.chat.completions.create({
      model: CLAUDE,
      messages: [{ role: "user", content: "Hi" }],
    }),
    (error: { status?: number }) => error.status === 502,
  );
});

Deno.test("messages client, chat upstream: 401 becomes 502 naming the provider, via the SDK too", async () => {
  fail(401, openaiError("invalid_request_error", "Incorrect API key provided", "invalid_api_key"));
  const r = await rig.post("/v1/messages", messagesBody(false));
  assert.equal(r.status, 502);
  const body = await r.json();
  assert.equal(body.type, "error");
  assert.match(body.error.message, /Provider "openai".*credential/);
  await assert.rejects(
    rig.anthropic.messages.create({
      model: GPT,
      max_tokens: 10,
      messages: [{ role: "user", content: "Hi" }],
    }),
    (error: { status?: number }) => error.status === 502,
  );
});

Deno.test("chat client, Anthropic upstream: 400 stays 400 with the provider's message", async () => {
  fail(400, anthropicError("invalid_request_error", "messages.0.content: bad block"));
  const r = await rig.post("/v1/chat/completions", chatBody(false));
  assert.equal(r.status, 400);
  const body = await r.json();
  assert.equal(body.error.type, "invalid_request_error");
  assert.match(body.error.message, /bad block/);
});

Deno.test("messages client, chat upstream: 400 stays 400 with the provider's message", async () => {
  fail(400, openaiError("invalid_request_error", "Unsupported value: 'temperature'"));
  const r = await rig.post("/v1/messages", messagesBody(false));
  assert.equal(r.status, 400);
  const body = await r.json();
  assert.equal(body.type, "error");
  assert.equal(body.error.type, "invalid_request_error");
  assert.match(body.error.message, /Unsupported value/);
});

/** The start of an Anthropic stream with one text block that says `text`. */
function anthropicHead(text: string): Array<[string, unknown]> {
  return [
    ["message_start", {
      type: "message_start",
      message: {
        id: "msg_midstream",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-5",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 1 },
      },
    }],
    ["content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }],
    ["content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text },
    }],
  ];
}

/** A chat client's raw stream: the parsed data payloads, `[DONE]` kept as the string. */
async function chatEvents(): Promise<unknown[]> {
  const r = await rig.post("/v1/chat/completions", chatBody(true));
  assert.equal(r.status, 200);
  return (await readEvents(r)).map((e) => e.data === "[DONE]" ? e.data : JSON.parse(e.data));
}

const deltaText = (chunk: unknown) =>
  (chunk as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]?.delta?.content;

Deno.test("chat client, Anthropic upstream: an error event mid-stream becomes the final error chunk, no [DONE]", async () => {
  upstream.answer(() =>
    sseAnswer([...anthropicHead("partial"), [
      "error",
      anthropicError("overloaded_error", "Overloaded"),
    ]])
  );
  const events = await chatEvents();
  assert.ok(!events.includes("[DONE]"), "a failed stream must not end with [DONE]");
  const error = events.at(-1) as { error?: { message: string; type: string; code: string } };
  assert.ok(error.error, `the last data is an error: ${JSON.stringify(error)}`);
  assert.match(error.error.message, /Provider "anthropic"/);
  assert.match(error.error.message, /Overloaded/);
  assert.equal(error.error.type, "server_error");
  assert.ok(events.some((chunk) => deltaText(chunk) === "partial"));
  assert.ok(
    !events.some((chunk) =>
      (chunk as { choices?: Array<{ finish_reason?: string | null }> }).choices?.some((c) =>
        c.finish_reason != null
      )
    ),
    "a failed stream must not also report a clean finish_reason",
  );
  await assert.rejects(
    rig.openai.chat.completions.stream({
      model: CLAUDE,
      messages: [{ role: "user", content: "Hi" }],
    }).finalChatCompletion(),
    /Overloaded/,
  );
});

Deno.test("chat client, Anthropic upstream: a stream that stops before message_stop ends with an error, not silently", async () => {
  upstream.answer(() => sseAnswer(anthropicHead("cut off")));
  const events = await chatEvents();
  assert.ok(!events.includes("[DONE]"), "a cut stream must not end with [DONE]");
  const error = events.at(-1) as { error?: { message: string } };
  assert.ok(error.error, `the last data is an error: ${JSON.stringify(error)}`);
  assert.match(error.error.message, /incomplete|before/);
  await assert.rejects(
    rig.openai.chat.completions.stream({
      model: CLAUDE,
      messages: [{ role: "user", content: "Hi" }],
    }).finalChatCompletion(),
  );
});

/** The start of a chat stream that says `text`. */
function chatHead(text: string): unknown[] {
  const base = {
    id: "chatcmpl-midstream",
    object: "chat.completion.chunk",
    created: 1,
    model: GPT,
  };
  return [
    { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" } }] },
    { ...base, choices: [{ index: 0, delta: { content: text } }] },
  ];
}

async function messagesEvents() {
  const r = await rig.post("/v1/messages", messagesBody(true));
  assert.equal(r.status, 200);
  return await readEvents(r);
}

Deno.test("messages client, chat upstream: an error object mid-stream becomes the error event", async () => {
  upstream.answer(() =>
    sseAnswer([
      ...chatHead("partial"),
      openaiError("server_error", "The server had an error while processing your request"),
    ])
  );
  const events = await messagesEvents();
  const last = events.at(-1)!;
  assert.equal(last.event, "error");
  const body = JSON.parse(last.data);
  assert.equal(body.type, "error");
  assert.match(body.error.message, /Provider "openai".*server had an error/);
  assert.ok(!events.some((e) => e.event === "message_stop"));
  assert.ok(events.some((e) => e.data.includes('"partial"')));
  await assert.rejects(
    rig.anthropic.messages.stream({
      model: GPT,
      max_tokens: 64,
      messages: [{ role: "user", content: "Hi" }],
    }).finalMessage(),
    /server had an error/,
  );
});

Deno.test("messages client, chat upstream: a stream that stops before finish_reason ends with an error", async () => {
  upstream.answer(() => sseAnswer(chatHead("cut off")));
  const events = await messagesEvents();
  assert.equal(events.at(-1)!.event, "error");
  assert.ok(!events.some((e) => e.event === "message_stop"));
  await assert.rejects(
    rig.anthropic.messages.stream({
      model: GPT,
      max_tokens: 64,
      messages: [{ role: "user", content: "Hi" }],
    }).finalMessage(),
  );
});

Deno.test({
  name: "translation errors: close",
  fn: async () => {
    await rig.close();
    await upstream.close();
  },
});

Deno.test("a 200 whose body is not JSON is a 502 naming the provider, not a gateway crash", async () => {
  const upstream = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("<html>maintenance</html>", { headers: { "content-type": "text/html" } }),
  );
  const rig = await startRig(`http://127.0.0.1:${upstream.addr.port}`);
  try {
    const response = await rig.post("/v1/chat/completions", {
      model: "claude-sonnet-5",
      messages: [{ role: "user", content: "Hi" }],
    });
    assert.equal(response.status, 502);
    const body = await response.json();
    assert.match(body.error.message, /Provider "anthropic".*not JSON.*maintenance/);
  } finally {
    await rig.close();
    await upstream.shutdown();
  }
});
