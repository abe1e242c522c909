/**
 * Every ending of a model request, on every client protocol, passthrough and translated: what
 * the client sees, and exactly one ledger row with the right outcome. Streams that break end
 * with the client protocol's own terminal error, never a clean end.
 */
import assert from "node:assert/strict";
import type { Admitter } from "../../gateway/admission.ts";
import type { Outcome } from "../../store/store.ts";
import { listen, makeHarness, resetHealth, upstreamEnv } from "../harness.ts";
import { readEvents } from "../translation_e2e/helpers.ts";
import { type Mode, startModeUpstream } from "./mode_upstream.ts";

type ClientWire = "chat" | "messages" | "responses";

interface Route {
  name: string;
  wire: ClientWire;
  model: string;
}

const ROUTES: Route[] = [
  { name: "chat passthrough", wire: "chat", model: "gpt-5" },
  { name: "chat → Anthropic", wire: "chat", model: "claude-sonnet-5" },
  { name: "messages passthrough", wire: "messages", model: "claude-sonnet-5" },
  { name: "messages → chat", wire: "messages", model: "gpt-5" },
  { name: "responses passthrough", wire: "responses", model: "gpt-5.5-large" },
  { name: "responses → Anthropic", wire: "responses", model: "claude-sonnet-5" },
];

const PATH: Record<ClientWire, string> = {
  chat: "/v1/chat/completions",
  messages: "/v1/messages",
  responses: "/v1/responses",
};

function bodyFor(route: Route, stream: boolean, model = route.model): Record<string, unknown> {
  switch (route.wire) {
    case "chat":
      return { model, stream, messages: [{ role: "user", content: "Hi" }] };
    case "messages":
      return { model, stream, max_tokens: 64, messages: [{ role: "user", content: "Hi" }] };
    case "responses":
      return { model, stream, input: "Hi" };
  }
}

/** The stream idle timeout of the gateway under test. */
const IDLE_MS = 1000;

let explode = false;
const held = { admitted: 0, released: 0 };
const admitter: Admitter = {
  admit() {
    if (explode) throw new Error("a bug in the admitter");
    held.admitted++;
    return { release: () => void held.released++ };
  },
};

const upstream = startModeUpstream();
const harness = await makeHarness({
  demo: false,
  env: {
    ...upstreamEnv(upstream.url),
    GATEHOUSE_UPSTREAM_TIMEOUT_MS: "300",
    GATEHOUSE_STREAM_IDLE_TIMEOUT_MS: String(IDLE_MS),
    // One attempt per request: these are the endings of an attempt (retries have their own
    // tests in tests/reliability/).
    GATEHOUSE_RETRIES: "0",
  },
  admitter,
});
const server = listen(harness);

function send(route: Route, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${server.url}${PATH[route.wire]}`, {
    method: "POST",
    headers: { authorization: `Bearer ${harness.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
}

/** How a streamed answer ended, read as its client would. */
async function terminal(wire: ClientWire, response: Response): Promise<"clean" | "error" | "none"> {
  const events = await readEvents(response);
  const last = events.at(-1);
  if (last === undefined) return "none";
  if (wire === "chat") {
    if (events.some((event) => event.data === "[DONE]")) {
      return last.data === "[DONE]" ? "clean" : "none";
    }
    return JSON.parse(last.data).error ? "error" : "none";
  }
  const type = last.event ?? JSON.parse(last.data).type;
  const clean = wire === "messages"
    ? type === "message_stop"
    : type === "response.completed" || type === "response.incomplete";
  const failed = wire === "messages" ? type === "error" : type === "response.failed";
  return clean ? "clean" : failed ? "error" : "none";
}

/** Waits for the one ledger row a request writes; fails on none or on a second one. */
async function oneRow(before: number, outcome: Outcome, route: Route) {
  for (let i = 0; i < 150 && harness.rows.length === before; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(harness.rows.length, before + 1, "exactly one ledger row per request");
  const row = harness.rows[before]!;
  assert.equal(row.outcome, outcome);
  assert.equal(row.route, PATH[route.wire]);
  assert.match(row.requestId, /^req_[0-9a-z]{24}$/);
  return row;
}

interface Case {
  what: string;
  mode: Mode;
  stream: boolean;
  outcome: Outcome;
  check: (route: Route, response: Response) => Promise<void>;
}

const errorStatus = (status: number) => async (_route: Route, response: Response) => {
  assert.equal(response.status, status);
  await response.body?.cancel();
};
const ends = (expected: "clean" | "error") => async (route: Route, response: Response) => {
  assert.equal(response.status, 200);
  assert.equal(await terminal(route.wire, response), expected);
};

const CASES: Case[] = [
  {
    what: "a stream that completes",
    mode: "ok",
    stream: true,
    outcome: "ok",
    check: ends("clean"),
  },
  {
    what: "a JSON answer",
    mode: "ok",
    stream: false,
    outcome: "ok",
    check: async (_route, response) => {
      assert.equal(response.status, 200);
      await response.json();
    },
  },
  {
    what: "an upstream 500",
    mode: "status_500",
    stream: false,
    outcome: "upstream_error",
    // The client is told the upstream failed (502 naming its 500), not that gatehouse did.
    check: errorStatus(502),
  },
  {
    what: "an upstream 429 on a stream",
    mode: "status_429",
    stream: true,
    outcome: "upstream_error",
    check: async (route, response) => {
      assert.equal(response.headers.get("retry-after"), "7");
      await errorStatus(429)(route, response);
    },
  },
  {
    what: "an upstream that never answers",
    mode: "hang_headers",
    stream: true,
    outcome: "timeout",
    check: errorStatus(504),
  },
  {
    what: "a stream the upstream closes early",
    mode: "close_early",
    stream: true,
    outcome: "upstream_cut",
    check: ends("error"),
  },
  {
    what: "a stream whose connection breaks",
    mode: "reset",
    stream: true,
    outcome: "upstream_cut",
    check: ends("error"),
  },
  {
    what: "a JSON body whose connection breaks",
    mode: "reset",
    stream: false,
    outcome: "upstream_cut",
    check: errorStatus(502),
  },
  {
    what: "a stream that goes silent past the idle timeout",
    mode: "hang_stream",
    stream: true,
    outcome: "timeout",
    check: async (route, response) => {
      assert.equal(response.status, 200);
      const started = Date.now();
      const events = await readEvents(response.clone());
      assert.ok(Date.now() - started >= IDLE_MS - 200, "ended by the idle timeout");
      assert.match(events.at(-1)?.data ?? "", /sent nothing for 1 s mid-stream/);
      assert.equal(await terminal(route.wire, response), "error");
    },
  },
  {
    what: "an error event mid-stream",
    mode: "error_event",
    stream: true,
    outcome: "upstream_error",
    check: ends("error"),
  },
];

for (const route of ROUTES) {
  for (const c of CASES) {
    Deno.test(`${route.name}: ${c.what} → ${c.outcome}, one row`, async () => {
      upstream.mode = c.mode;
      resetHealth(harness);
      const before = harness.rows.length;
      const response = await send(route, bodyFor(route, c.stream));
      await c.check(route, response);
      const row = await oneRow(before, c.outcome, route);
      if (c.outcome === "ok") assert.ok(row.outputTokens > 0, "the answer's tokens are billed");
      if (c.mode === "close_early" || c.mode === "reset") assert.ok(row.inputTokens >= 0);
    });
  }

  Deno.test(`${route.name}: a client that leaves mid-stream → client_disconnect, one row`, async () => {
    upstream.mode = "hang_stream";
    const before = harness.rows.length;
    const abortedBefore = upstream.aborted;
    const controller = new AbortController();
    const response = await send(route, bodyFor(route, true), controller.signal);
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await reader.cancel().catch(() => {});
    const row = await oneRow(before, "client_disconnect", route);
    assert.equal(row.stream, true);
    for (let i = 0; i < 100 && upstream.aborted === abortedBefore; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(upstream.aborted > abortedBefore, "the upstream request was closed");
  });

  Deno.test(`${route.name}: a model not in the catalog → rejected, one row`, async () => {
    const before = harness.rows.length;
    const response = await send(route, bodyFor(route, false, "no-such-model"));
    assert.equal(response.status, 404);
    await response.body?.cancel();
    const row = await oneRow(before, "rejected", route);
    assert.equal(row.model, "no-such-model");
    assert.equal(row.attempts, 0);
  });

  Deno.test(`${route.name}: an exception in the gateway → internal_error, one row`, async () => {
    explode = true;
    try {
      const before = harness.rows.length;
      const response = await send(route, bodyFor(route, true));
      assert.equal(response.status, 500);
      await response.body?.cancel();
      await oneRow(before, "internal_error", route);
    } finally {
      explode = false;
    }
  });
}

Deno.test("every admission is released exactly once", async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(held.released, held.admitted);
  assert.ok(held.admitted > 0);
});

Deno.test("lifecycle endings: close", async () => {
  await server.close();
  await harness.close();
  await upstream.close();
});
