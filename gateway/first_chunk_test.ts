import assert from "node:assert/strict";
import type { ChunkReader } from "../core/chunk_reader.ts";
import { STREAM_INCOMPLETE } from "../core/errors.ts";
import type { Wire } from "../core/request.ts";
import { upstreamCodec } from "../protocols/registry.ts";
import { chatRequestOf, makeHarness } from "../tests/harness.ts";
import { AttemptFailed, finalError } from "./attempt_failure.ts";
import { firstChunk } from "./first_chunk.ts";
import { streamIdleTimeout } from "./idle_cutoff.ts";
import { Lifecycle } from "./lifecycle.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A reader over `chunks` (text) that counts its reads and records its cancel. */
function fakeReader(chunks: string[]) {
  const queue = chunks.map((chunk) => encoder.encode(chunk));
  const state = { reads: 0, cancelled: false, reason: undefined as unknown };
  const reader: ChunkReader<Uint8Array> = {
    read: () => {
      state.reads++;
      return Promise.resolve(queue.shift() ?? null);
    },
    cancel: (reason) => {
      state.cancelled = true;
      state.reason = reason;
      queue.length = 0;
      return Promise.resolve();
    },
  };
  return { reader, state };
}

/** Everything `reader` yields, as text chunks. */
async function drain(reader: ChunkReader<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for (let chunk = await reader.read(); chunk !== null; chunk = await reader.read()) {
    out.push(decoder.decode(chunk));
  }
  return out;
}

/** Runs `body` with a streamed lifecycle over a demo gateway. */
async function withLife(body: (life: Lifecycle) => Promise<void>): Promise<void> {
  const harness = await makeHarness();
  try {
    const { request } = await chatRequestOf(harness);
    await body(new Lifecycle(harness.deps, request, true));
  } finally {
    await harness.close();
  }
}

/** The check for a stream of `wire` from `provider`. */
function checkOf(life: Lifecycle, wire: Wire, provider: string) {
  const codec = upstreamCodec(wire, { providerName: provider });
  return { life, provider, codec, headers: new Headers() };
}

/** An SSE event block, blank line included. */
function sse(event: string | null, data: unknown): string {
  const name = event === null ? "" : `event: ${event}\n`;
  return `${name}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

const MESSAGE_START = sse("message_start", {
  type: "message_start",
  message: { id: "msg_1", type: "message", role: "assistant", content: [], model: "claude" },
});
const TEXT_DELTA = sse("content_block_delta", {
  type: "content_block_delta",
  index: 0,
  delta: { type: "text_delta", text: "Hello" },
});
const OVERLOADED = sse("error", {
  type: "error",
  error: { type: "overloaded_error", message: "Overloaded" },
});
const INVALID = sse("error", {
  type: "error",
  error: {
    type: "invalid_request_error",
    message: "messages: text content blocks must be non-empty",
  },
});

/** The {@link AttemptFailed} `promise` rejects with. */
async function failureOf(promise: Promise<unknown>): Promise<AttemptFailed> {
  const error = await promise.then(() => null, (e: unknown) => e);
  assert.ok(error instanceof AttemptFailed, `an AttemptFailed, got ${String(error)}`);
  return error;
}

Deno.test("firstChunk: yields the first chunk again, then the rest", async () => {
  await withLife(async (life) => {
    const { reader, state } = fakeReader([MESSAGE_START, TEXT_DELTA, "event: message_stop\n"]);
    const body = await firstChunk(reader, checkOf(life, "anthropic_messages", "anthropic"));
    assert.equal(state.reads, 1, "only the first chunk is read before the answer");
    assert.deepEqual(await drain(body), [MESSAGE_START, TEXT_DELTA, "event: message_stop\n"]);
    assert.equal(state.cancelled, false);
  });
});

Deno.test("firstChunk: cancelling the body cancels the source", async () => {
  await withLife(async (life) => {
    const { reader, state } = fakeReader([MESSAGE_START, TEXT_DELTA]);
    const body = await firstChunk(reader, checkOf(life, "anthropic_messages", "anthropic"));
    await body.cancel("client left");
    assert.equal(state.cancelled, true);
    assert.equal(state.reason, "client left");
    assert.equal(await body.read(), null, "the held first chunk is dropped");
  });
});

Deno.test("firstChunk: a stream that ends before its first chunk is a cut attempt", async () => {
  await withLife(async (life) => {
    const { reader, state } = fakeReader([]);
    const failure = await failureOf(
      firstChunk(reader, checkOf(life, "anthropic_messages", "anthropic")),
    );
    assert.equal(failure.result, "cut");
    assert.equal(failure.status, 200);
    assert.equal(failure.error.code, STREAM_INCOMPLETE);
    assert.match(failure.message, /Provider "anthropic" ended the stream before its first event/);
    assert.equal(state.cancelled, true);
  });
});

Deno.test("firstChunk: a stream ended for silence before its first chunk names the timeout", async () => {
  await withLife(async (life) => {
    const timeout = streamIdleTimeout("anthropic", 300_000);
    life.streamEnded(timeout);
    const { reader } = fakeReader([]);
    const failure = await failureOf(
      firstChunk(reader, checkOf(life, "anthropic_messages", "anthropic")),
    );
    assert.equal(failure.result, "cut");
    assert.equal(failure.error, timeout);
    assert.equal(finalError(failure, 3).status, 504);
  });
});

Deno.test("firstChunk: Anthropic's overloaded error as the first event is a failed attempt", async () => {
  await withLife(async (life) => {
    const { reader, state } = fakeReader([OVERLOADED]);
    const failure = await failureOf(
      firstChunk(reader, checkOf(life, "anthropic_messages", "anthropic")),
    );
    assert.equal(failure.result, "error_event");
    assert.equal(failure.status, 200);
    assert.equal(failure.error.status, 529);
    assert.equal(failure.error.kind, "overloaded");
    assert.match(failure.message, /Provider "anthropic" returned HTTP 529: Overloaded/);
    assert.equal(state.cancelled, true);
    assert.equal(finalError(failure, 3).status, 503);
  });
});

Deno.test("firstChunk: an overloaded error after message_start, before any text, fails too", async () => {
  await withLife(async (life) => {
    const { reader } = fakeReader([MESSAGE_START + OVERLOADED]);
    const failure = await failureOf(
      firstChunk(reader, checkOf(life, "anthropic_messages", "anthropic")),
    );
    assert.equal(failure.result, "error_event");
    assert.equal(failure.error.kind, "overloaded");
  });
});

Deno.test("firstChunk: an error after a text delta in the same chunk is the stream's own end", async () => {
  await withLife(async (life) => {
    const chunk = MESSAGE_START + TEXT_DELTA + OVERLOADED;
    const { reader, state } = fakeReader([chunk]);
    const body = await firstChunk(reader, checkOf(life, "anthropic_messages", "anthropic"));
    assert.deepEqual(await drain(body), [chunk]);
    assert.equal(state.cancelled, false);
  });
});

Deno.test("firstChunk: a non-transient error event is the client's answer, not a failure", async () => {
  await withLife(async (life) => {
    const { reader, state } = fakeReader([INVALID]);
    const body = await firstChunk(reader, checkOf(life, "anthropic_messages", "anthropic"));
    assert.deepEqual(await drain(body), [INVALID]);
    assert.equal(state.cancelled, false);
  });
});

Deno.test('firstChunk: a client error whose message says "internal" is still not a failure', async () => {
  await withLife(async (life) => {
    const invalid = sse("error", {
      type: "error",
      error: {
        type: "invalid_request_error",
        message: "tools.0.name: internal_lookup: input_schema is not valid JSON Schema",
      },
    });
    const { reader } = fakeReader([invalid]);
    const body = await firstChunk(reader, checkOf(life, "anthropic_messages", "anthropic"));
    assert.deepEqual(await drain(body), [invalid]);
  });
});

Deno.test("firstChunk: an error event cut by the chunk's end is left to the stream", async () => {
  await withLife(async (life) => {
    const partial = OVERLOADED.slice(0, -1);
    const { reader } = fakeReader([partial, "\n"]);
    const body = await firstChunk(reader, checkOf(life, "anthropic_messages", "anthropic"));
    assert.deepEqual(await drain(body), [partial, "\n"]);
  });
});

Deno.test("firstChunk: a chat stream's server_error chunk first is a failed attempt", async () => {
  await withLife(async (life) => {
    const error = sse(null, {
      error: { message: "The server had an error", type: "server_error" },
    });
    const { reader } = fakeReader([error]);
    const failure = await failureOf(firstChunk(reader, checkOf(life, "openai_chat", "openai")));
    assert.equal(failure.result, "error_event");
    assert.match(failure.message, /Provider "openai" returned HTTP 500: The server had an error/);
    assert.equal(finalError(failure, 2).status, 502);
  });
});

Deno.test("firstChunk: a chat stream's text chunk first is delivered", async () => {
  await withLife(async (life) => {
    const chunk = sse(null, {
      id: "c1",
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }],
    });
    const { reader } = fakeReader([chunk, "data: [DONE]\n\n"]);
    const body = await firstChunk(reader, checkOf(life, "openai_chat", "openai"));
    assert.deepEqual(await drain(body), [chunk, "data: [DONE]\n\n"]);
  });
});

Deno.test("firstChunk: a Responses stream's response.failed first is a failed attempt", async () => {
  await withLife(async (life) => {
    const failed = sse("response.failed", {
      type: "response.failed",
      sequence_number: 1,
      response: {
        id: "resp_1",
        status: "failed",
        error: { code: "server_error", message: "The model is overloaded right now" },
      },
    });
    const { reader } = fakeReader([failed]);
    const failure = await failureOf(
      firstChunk(reader, checkOf(life, "openai_responses", "openai")),
    );
    assert.equal(failure.result, "error_event");
    // Typed by its code (server_error), not by what its message says.
    assert.equal(failure.error.status, 500);
    assert.match(failure.message, /The model is overloaded right now/);
  });
});

Deno.test("firstChunk: empty reads before the first bytes say nothing yet", async () => {
  await withLife(async (life) => {
    const empty = fakeReader(["", "", MESSAGE_START]);
    const check = checkOf(life, "anthropic_messages", "anthropic");
    assert.deepEqual(await drain(await firstChunk(empty.reader, check)), [MESSAGE_START]);
    const nothing = fakeReader(["", ""]);
    const failure = await failureOf(firstChunk(nothing.reader, check));
    assert.equal(failure.result, "cut");
  });
});
