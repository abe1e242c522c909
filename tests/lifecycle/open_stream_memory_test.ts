/**
 * An open stream keeps none of its prompt: once a request is admitted and its upstream call
 * made, the body (the client's text, the parsed value, the text sent upstream) is garbage, for
 * however long the answer streams. Coding agents send prompts of 100 KB and more; a gateway
 * that kept three copies per open stream would hold gigabytes at 10,000 streams.
 *
 * Measured as the live heap and the buffers outside it (after full collections) while the
 * stream is open, with a prompt far larger than everything else a stream holds, on every wire
 * pair and after a retried attempt. The test's own request body is bytes sent before the
 * measure.
 */
import assert from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { listen, makeHarness, upstreamEnv } from "../harness.ts";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

/** The prompt's length: each copy kept would add at least this to the live heap. */
const PROMPT_CHARS = 4 << 20;

/** The first events of an answer on each upstream wire (the fakes in `tests/fakes` keep every
 * request they get, which would count here). */
const FIRST_EVENTS: Record<string, string> = {
  "/v1/chat/completions": 'data: {"id":"chatcmpl-1","object":"chat.completion.chunk",' +
    '"created":1,"model":"gpt-5","choices":[{"index":0,"delta":{"role":"assistant",' +
    '"content":"Hi"},"finish_reason":null}]}\n\n',
  "/v1/messages": 'event: message_start\ndata: {"type":"message_start","message":{"id":' +
    '"msg_1","type":"message","role":"assistant","model":"claude-sonnet-5","content":[],' +
    '"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}' +
    '\n\nevent: content_block_start\ndata: {"type":"content_block_start","index":0,' +
    '"content_block":{"type":"text","text":""}}\n\nevent: content_block_delta\ndata: ' +
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n',
  "/v1/responses": 'event: response.created\ndata: {"type":"response.created",' +
    '"sequence_number":0,"response":{"id":"resp_1","object":"response","created_at":1,' +
    '"status":"in_progress","model":"gpt-5.5","output":[]}}\n\nevent: ' +
    'response.output_item.added\ndata: {"type":"response.output_item.added",' +
    '"sequence_number":1,"output_index":0,"item":{"id":"msg_1","type":"message",' +
    '"status":"in_progress","role":"assistant","content":[]}}\n\n',
};

/** Set to fail the next upstream call with a 500 (the gateway retries it). */
let failNext = false;

/** An upstream that reads and drops the request, sends its wire's first events, then holds the
 * stream open until the gateway closes it (or, once when told, fails). */
const upstream = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
  // Chunk by chunk, never as one buffer: it runs in the gateway's process, and the runtime's
  // server sometimes kept the failed attempt's request, read whole, after its answer (the
  // retry cases then saw 4 MiB more outside the heap in about one run in eight).
  for await (const _chunk of req.body ?? []) continue;
  if (failNext) {
    failNext = false;
    return Response.json({ error: { message: "try again", type: "server_error" } }, {
      status: 500,
    });
  }
  const first = new TextEncoder().encode(FIRST_EVENTS[new URL(req.url).pathname] ?? "");
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(first);
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
});

const harness = await makeHarness({
  demo: false,
  env: { ...upstreamEnv(`http://127.0.0.1:${upstream.addr.port}`), GATEHOUSE_RETRIES: "1" },
});
const server = listen(harness);

/** The JS heap in use, and the memory of buffers outside it (the body's bytes, which the
 * gateway keeps for a large body until its upstream call: `routes/body.ts`), after full
 * collections (weak references and finalizers settled). */
async function liveMemory(): Promise<{ heap: number; external: number }> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const { heapUsed, external } = Deno.memoryUsage();
  return { heap: heapUsed, external };
}

/** The request as bytes: the test keeps no string of the prompt on the heap. */
function bodyBytes(path: string, model: string, chars: number): Uint8Array<ArrayBuffer> {
  const prompt = "x".repeat(chars);
  const messages = [{ role: "user", content: prompt }];
  // A stored Responses answer (`store`, the API's default) keeps its conversation to save it
  // for `previous_response_id` when the stream ends: that is the feature. Codex sends `store:
  // false`, as here.
  const body = path === "/v1/responses"
    ? { model, stream: true, store: false, input: prompt }
    : { model, stream: true, max_tokens: 64, messages };
  return new TextEncoder().encode(JSON.stringify(body));
}

/** Opens a stream with a prompt of `chars` and reads its first chunk. */
async function open(path: string, model: string, chars: number) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${harness.key}`, "content-type": "application/json" },
    body: bodyBytes(path, model, chars),
  });
  assert.equal(response.status, 200);
  const reader = response.body!.getReader();
  const first = await reader.read();
  assert.ok(!first.done && first.value.length > 0, "the stream is open and has begun");
  return reader;
}

const CASES = [
  { name: "chat passthrough", path: "/v1/chat/completions", model: "gpt-5" },
  { name: "messages passthrough", path: "/v1/messages", model: "claude-sonnet-5" },
  { name: "messages → chat", path: "/v1/messages", model: "gpt-5" },
  { name: "chat → Anthropic", path: "/v1/chat/completions", model: "claude-sonnet-5" },
  { name: "responses passthrough", path: "/v1/responses", model: "gpt-5.5-large" },
  { name: "chat → Responses", path: "/v1/chat/completions", model: "gpt-5.5-large" },
  { name: "messages → Responses", path: "/v1/messages", model: "gpt-5.5-large" },
  { name: "responses → Anthropic", path: "/v1/responses", model: "claude-sonnet-5" },
  // The attempt that answers is the second: the first one's call must not stay behind either.
  {
    name: "chat passthrough after a retry",
    path: "/v1/chat/completions",
    model: "gpt-5",
    retry: true,
  },
  { name: "messages → chat after a retry", path: "/v1/messages", model: "gpt-5", retry: true },
];

for (const { name, path, model, retry } of CASES) {
  Deno.test(`an open stream holds none of its prompt: ${name}`, async () => {
    // A small stream on the same route first: what the gateway makes once, on first use, is
    // not the stream's.
    await (await open(path, model, 16)).cancel();
    const before = await liveMemory();
    failNext = retry === true;
    const reader = await open(path, model, PROMPT_CHARS);
    assert.equal(failNext, false, "the upstream was called");
    const during = await liveMemory();
    await reader.cancel();
    for (const part of ["heap", "external"] as const) {
      const grew = during[part] - before[part];
      assert.ok(
        grew < PROMPT_CHARS / 4,
        `${part} memory grew by ${grew} bytes while the stream was open (prompt: ${PROMPT_CHARS})`,
      );
    }
  });
}

Deno.test("open stream memory: close", async () => {
  await server.close();
  await harness.close();
  await upstream.shutdown();
});
