/**
 * A client that goes away in the middle of a translated stream: the gateway closes the upstream
 * request (the provider stops generating) and the ledger still gets the request's row. Both
 * stream shapes are covered: the fused one, and the Responses one with its store stage.
 */
import assert from "node:assert/strict";
import { startRig, startScriptedUpstream } from "./helpers.ts";

const upstream = startScriptedUpstream();
const rig = await startRig(upstream.url);
const encoder = new TextEncoder();

/** A response whose body sends `first` and then never ends. */
function hanging(first: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(encoder.encode(first)),
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

/** A chat stream that sends its first chunks and then never ends. */
function hangingChatStream(): Response {
  const chunk = (delta: Record<string, unknown>) =>
    `data: ${
      JSON.stringify({
        id: "chatcmpl-1",
        object: "chat.completion.chunk",
        created: 1,
        model: "gpt-5",
        choices: [{ index: 0, delta, finish_reason: null }],
      })
    }\n\n`;
  return hanging(chunk({ role: "assistant", content: "" }) + chunk({ content: "Hello" }));
}

/** An Anthropic stream that starts a text block and then never ends. */
function hangingAnthropicStream(): Response {
  const event = (payload: { type: string } & Record<string, unknown>) =>
    `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;
  return hanging(
    event({
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-5",
        content: [],
        stop_reason: null,
        usage: { input_tokens: 9, output_tokens: 1 },
      },
    }) +
      event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
      event({
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: "Hello" },
      }),
  );
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
}

/** Sends `body` to `path`, reads until `marker` arrives, leaves, and checks that the upstream
 * request was closed and that the ledger holds the request. */
async function leaveMidStream(path: string, body: unknown, marker: RegExp): Promise<void> {
  const before = upstream.aborted;
  const requestsBefore = await ledgerRequests();
  const controller = new AbortController();
  const response = await fetch(`${rig.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${rig.harness.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!marker.test(seen)) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value;
  }
  assert.match(seen, marker);
  controller.abort();
  await reader.cancel().catch(() => {});
  await until(() => upstream.aborted > before);
  assert.equal(upstream.aborted, before + 1, "the upstream request was closed");
  assert.equal(await ledgerRequests(), requestsBefore + 1, "the left request has its ledger row");
}

async function ledgerRequests(): Promise<number> {
  const usage = await fetch(`${rig.url}/v1/usage`, {
    headers: { authorization: `Bearer ${rig.harness.key}` },
  });
  return (await usage.json()).totals.requests;
}

Deno.test("messages client, chat upstream: a client that leaves mid-stream closes the upstream request", async () => {
  upstream.answer(hangingChatStream);
  await leaveMidStream(
    "/v1/messages",
    { model: "gpt-5", max_tokens: 64, stream: true, messages: [{ role: "user", content: "Hi" }] },
    /"text":"Hello"/,
  );
});

Deno.test("Responses client (stored), Anthropic upstream: a client that leaves mid-stream closes the upstream request", async () => {
  upstream.answer(hangingAnthropicStream);
  await leaveMidStream(
    "/v1/responses",
    { model: "claude-sonnet-5", stream: true, input: "Hi" },
    /"delta":"Hello"/,
  );
});

Deno.test({
  name: "translation disconnect: close",
  fn: async () => {
    await rig.close();
    await upstream.close();
  },
});
