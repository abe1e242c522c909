/**
 * Each failure is logged once, with its request id, and a client that left is not an error: a
 * model request's failures are logged by its lifecycle (not again by the app's error handler);
 * other routes' failures by the error handler; a client that leaves before the upstream answers
 * leaves a client_disconnect row and no error line.
 */
import assert from "node:assert/strict";
import { createApp } from "../../app.ts";
import type { Admitter } from "../../gateway/admission.ts";
import type { Store } from "../../store/store.ts";
import { type Harness, listen, makeHarness, upstreamEnv } from "../harness.ts";
import { startModeUpstream } from "./mode_upstream.ts";

let explode = false;
const admitter: Admitter = {
  admit() {
    if (explode) throw new Error("a bug in the admitter");
    return { release: () => {} };
  },
};
const upstream = startModeUpstream();
const harness = await makeHarness({
  demo: false,
  env: { ...upstreamEnv(upstream.url), GATEHOUSE_UPSTREAM_TIMEOUT_MS: "10000" },
  admitter,
});
const server = listen(harness);

const MODEL_REQUESTS = [
  { name: "chat passthrough", path: "/v1/chat/completions", model: "gpt-5" },
  { name: "chat → Anthropic", path: "/v1/chat/completions", model: "claude-sonnet-5" },
  { name: "images", path: "/v1/images/generations", model: "gpt-image-1" },
];

function bodyFor(path: string, model: string) {
  return path === "/v1/images/generations"
    ? { model, prompt: "an otter" }
    : { model, messages: [{ role: "user", content: "Hi" }] };
}

function post(path: string, body: unknown, signal?: AbortSignal) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${harness.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
}

const errorLines = (h: Harness, from: number) =>
  h.logs.slice(from).filter((line) => line.level === "error");

async function waitFor(check: () => boolean) {
  for (let i = 0; i < 150 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  await new Promise((resolve) => setTimeout(resolve, 60)); // room for a late second line or row
}

for (const request of MODEL_REQUESTS) {
  Deno.test(`${request.name}: a client that leaves before the upstream answers is no error`, async () => {
    upstream.mode = "hang_headers";
    const rows = harness.rows.length;
    const logs = harness.logs.length;
    const controller = new AbortController();
    const sent = post(request.path, bodyFor(request.path, request.model), controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 150));
    controller.abort();
    await assert.rejects(sent);
    await waitFor(() => harness.rows.length > rows);
    assert.equal(harness.rows.length, rows + 1, "one row");
    assert.equal(harness.rows[rows]!.outcome, "client_disconnect");
    assert.equal(harness.rows[rows]!.status, 499);
    assert.deepEqual(errorLines(harness, logs), [], "no error line");
  });

  Deno.test(`${request.name}: a failure in gatehouse's code is logged once, with the request id`, async () => {
    explode = true;
    try {
      const logs = harness.logs.length;
      const response = await post(request.path, bodyFor(request.path, request.model));
      assert.equal(response.status, 500);
      await response.body?.cancel();
      const id = response.headers.get("x-request-id");
      await waitFor(() => errorLines(harness, logs).length > 0);
      const lines = errorLines(harness, logs);
      assert.equal(lines.length, 1, JSON.stringify(lines));
      assert.equal(lines[0]!.message, "request failed in the gateway");
      assert.equal(lines[0]!.fields?.requestId, id);
      assert.match(String(lines[0]!.fields?.error), /a bug in the admitter/);
    } finally {
      explode = false;
    }
  });
}

/** The harness's app over a store whose usage report fails after `delayMs`. */
function brokenUsage(delayMs: number) {
  const store = new Proxy(harness.deps.store, {
    get(target, name) {
      if (name !== "usageReport") return Reflect.get(target, name);
      return () =>
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error("the usage query broke")), delayMs)
        );
    },
  }) as Store;
  const app = createApp({ ...harness.deps, store });
  const served = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  return { url: `http://127.0.0.1:${served.addr.port}`, close: () => served.shutdown() };
}

Deno.test("another route's failure is logged once by the error handler, with the request id", async () => {
  const broken = brokenUsage(0);
  try {
    const logs = harness.logs.length;
    const response = await fetch(`${broken.url}/v1/usage`, {
      headers: { authorization: `Bearer ${harness.key}`, "x-request-id": "trace-usage-1" },
    });
    assert.equal(response.status, 500);
    assert.equal((await response.json()).error.code, "internal_error");
    const lines = errorLines(harness, logs);
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.message, "request failed in the gateway");
    assert.equal(lines[0]!.fields?.requestId, "trace-usage-1");
    assert.match(String(lines[0]!.fields?.error), /the usage query broke/);
    assert.match(String(lines[0]!.fields?.stack), /Error: the usage query broke/);
  } finally {
    await broken.close();
  }
});

Deno.test("another route whose client left before the failure: an info line, no error", async () => {
  const broken = brokenUsage(300);
  try {
    const logs = harness.logs.length;
    const controller = new AbortController();
    const sent = fetch(`${broken.url}/v1/usage`, {
      headers: { authorization: `Bearer ${harness.key}`, "x-request-id": "trace-usage-2" },
      signal: controller.signal,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await assert.rejects(sent);
    const left = () => harness.logs.slice(logs).filter((line) => line.level === "info");
    await waitFor(() => left().length > 0);
    assert.deepEqual(errorLines(harness, logs), []);
    assert.equal(left().length, 1);
    assert.equal(left()[0]!.message, "the client left before the answer");
    assert.equal(left()[0]!.fields?.requestId, "trace-usage-2");
  } finally {
    await broken.close();
  }
});

Deno.test("a client that leaves halfway through sending its body: one client_disconnect row, no error", async () => {
  const rows = harness.rows.length;
  const logs = harness.logs.length;
  const port = Number(new URL(server.url).port);
  const connection = await Deno.connect({ hostname: "127.0.0.1", port });
  const head = "POST /v1/chat/completions HTTP/1.1\r\nHost: gatehouse.test\r\n" +
    `Authorization: Bearer ${harness.key}\r\nContent-Type: application/json\r\n` +
    "Content-Length: 1000\r\nx-request-id: left-mid-body\r\n\r\n";
  await connection.write(new TextEncoder().encode(`${head}{"model":"gpt-5","messages":`));
  await new Promise((resolve) => setTimeout(resolve, 100));
  connection.close();
  await waitFor(() => harness.rows.length > rows);
  assert.equal(harness.rows.length, rows + 1, "one row");
  const row = harness.rows[rows]!;
  assert.equal(row.outcome, "client_disconnect");
  assert.equal(row.requestId, "left-mid-body");
  assert.equal(row.attempts, 0);
  assert.deepEqual(errorLines(harness, logs), [], "no error line");
});

Deno.test("error logs: close", async () => {
  await server.close();
  await harness.close();
  await upstream.close();
});
