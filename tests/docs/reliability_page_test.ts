/**
 * The "Reliability" page: served and in the navigation, every setting with the default the code
 * has, the retry policy's own numbers, and a failure table whose statuses, types and outcomes
 * are what `finalError` and the gateway produce — checked against independently built failures
 * and against a live gateway in front of a failing upstream.
 */
import assert from "node:assert/strict";
import type { ResolvedProvider } from "../../catalog/catalog.ts";
import { DEFAULT_BASE_URLS } from "../../catalog/resolve_provider.ts";
import type { ChunkReader } from "../../core/chunk_reader.ts";
import { createDocsApp } from "../../docs/mod.ts";
import { escapeHtml } from "../../docs/html.ts";
import { NAV } from "../../docs/layout.ts";
import { AttemptFailed, finalError } from "../../gateway/attempt_failure.ts";
import { readGatewayConfig } from "../../gateway/config.ts";
import { firstChunk } from "../../gateway/first_chunk.ts";
import { streamIdleTimeout } from "../../gateway/idle_cutoff.ts";
import { Lifecycle } from "../../gateway/lifecycle.ts";
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  isRetryableStatus,
  MAX_HONOURED_RETRY_AFTER_MS,
} from "../../gateway/retry_policy.ts";
import { upstreamFetch } from "../../gateway/upstream_fetch.ts";
import { ConnectTimeoutError, type UpstreamFetch } from "../../http1/client.ts";
import { anthropicErrorType } from "../../protocols/anthropic_messages/encode_error.ts";
import { openaiErrorBody } from "../../protocols/openai_chat/encode_error.ts";
import { upstreamCodec } from "../../protocols/registry.ts";
import { upstreamError } from "../../protocols/upstream_error.ts";
import { ATTEMPT_RESULTS } from "../../store/store.ts";
import { SETTINGS } from "../../docs/pages/reliability_settings.ts";
import { chatRequestOf, type Harness, makeHarness, resetHealth, upstreamEnv } from "../harness.ts";
import { squash } from "./docs_env.ts";

const DEFAULTS = readGatewayConfig(() => undefined);
const ATTEMPTS = 1 + DEFAULTS.retries;

/** Each variable and the config value it sets, in the variable's unit. */
const VARIABLES: Record<string, (c: typeof DEFAULTS) => number> = {
  GATEHOUSE_RETRIES: (c) => c.retries,
  GATEHOUSE_CONNECT_TIMEOUT_MS: (c) => c.connectTimeoutMs,
  GATEHOUSE_UPSTREAM_TIMEOUT_MS: (c) => c.upstreamTimeoutMs,
  GATEHOUSE_STREAM_IDLE_TIMEOUT_MS: (c) => c.streamIdleTimeoutMs,
  GATEHOUSE_COOLDOWN_SECONDS: (c) => c.cooldownMs / 1000,
  GATEHOUSE_COOLDOWN_FAILURES: (c) => c.cooldownFailures,
  GATEHOUSE_DRAIN_SECONDS: (c) => c.drainMs / 1000,
};

/** The docs host over a demo gateway's document; `page` fetches a path, squashed. */
async function docsPage(path: string): Promise<string> {
  const h = await makeHarness();
  const document = await (await h.request("/openapi.json")).json();
  await h.close();
  const app = createDocsApp({
    document: () => document,
    catalog: h.deps.catalog,
    publicBaseUrl: "https://api.gatehouse.example",
    docsUrl: "https://docs.gatehouse.example",
  });
  const response = await app.request(path);
  assert.equal(response.status, 200, path);
  return squash(await response.text());
}

/** A failure table row's cells, by its id. */
function failureCells(text: string, id: string): string[] {
  const row = new RegExp(`<tr data-failure="${id}">(.*?)</tr>`).exec(text);
  assert.ok(row, `row ${id}`);
  return [...row[1]!.matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1]!);
}

/** What a client sees: the status, the OpenAI type and code, the Anthropic type (each optional),
 * and the ledger outcome. */
interface Shown {
  status: number;
  openai?: { type: string; code: string | null };
  anthropic?: string;
  outcome: string | undefined;
}

/** Asserts failure row `id` shows `shown`. */
function assertRow(text: string, id: string, shown: Shown) {
  const cells = failureCells(text, id);
  assert.equal(cells[1], `<code>${shown.status}</code>`, `${id}: status`);
  if (shown.openai) {
    const { type, code } = shown.openai;
    assert.ok(cells[2]!.includes(`<code>${type}</code> / <code>${code}</code>`), `${id}: openai`);
  }
  if (shown.anthropic) {
    assert.equal(cells[3], `<code>${shown.anthropic}</code>`, `${id}: anthropic`);
  }
  assert.equal(cells[5], `<code>${shown.outcome}</code>`, `${id}: outcome`);
}

Deno.test("the reliability page is served, in the navigation, and linked to its sections", async () => {
  const item = NAV.flatMap((g) => g.items).find((i) => i.path === "/reliability");
  assert.equal(item?.label, "Reliability");
  const text = await docsPage("/reliability");
  assert.ok(text.includes("<h1>Reliability</h1>"));
  assert.ok(text.includes('href="/reliability" aria-current="page"'));
  const sections = ["deployments", "fallbacks", "settings", "retries", "failures", "health"];
  for (const id of [...sections, "readyz", "deployments-view", "request-log", "shutdown"]) {
    assert.ok(text.includes(`<h2 id="${id}">`) && text.includes(`href="#${id}"`), id);
  }
  assert.ok(text.includes("<code>x-gatehouse-served-model</code>"));
  assert.ok(text.includes("<code>fallback_on_context_overflow</code>"));
  for (const result of ATTEMPT_RESULTS) {
    assert.ok(text.includes(`<tr data-result="${result}"><td><code>${result}</code>`), result);
  }
});

Deno.test("the settings table lists every setting with the default the code has", async () => {
  const text = await docsPage("/reliability");
  assert.deepEqual(SETTINGS.map((s) => s.name), Object.keys(VARIABLES));
  for (const [name, read] of Object.entries(VARIABLES)) {
    const value = read(DEFAULTS);
    assert.match(
      text,
      new RegExp(
        `<tr data-setting="${name}"><td><code>${name}</code></td><td><code>${value}</code>`,
      ),
      name,
    );
    // The page's row reads the field the variable sets.
    const page = SETTINGS.find((s) => s.name === name)!;
    const set = readGatewayConfig((v) => v === name ? "7" : undefined);
    assert.equal(page.read(set), 7, name);
    assert.equal(read(set), 7, name);
  }
  // The README's table says the same.
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  for (const [name, read] of Object.entries(VARIABLES)) {
    assert.match(readme, new RegExp(`\\| \`${name}\` +\\| \`${read(DEFAULTS)}\` +\\|`), name);
  }
  assert.ok(text.includes("<code>GATEHOUSE_UPSTREAM_CLIENT=fetch</code>"));
  assert.ok(text.includes("There is no limit on a stream's total duration"));
});

Deno.test("the retry section quotes the retry policy", async () => {
  const text = await docsPage("/reliability");
  const statuses = Array.from({ length: 200 }, (_, i) => 400 + i).filter(isRetryableStatus);
  const listed = /an upstream status among (.*?) \(Anthropic/.exec(text)?.[1] ?? "";
  assert.deepEqual([...listed.matchAll(/<code>(\d+)<\/code>/g)].map((m) => Number(m[1])), statuses);
  const cap = BACKOFF_CAP_MS.toLocaleString("en-US");
  assert.ok(text.includes(`min(${cap}, ${BACKOFF_BASE_MS} × 2<sup>n−1</sup>) ms`));
  assert.ok(text.includes(`one of at most ${MAX_HONOURED_RETRY_AFTER_MS / 1000} s`));
  assert.ok(text.includes(`(${ATTEMPTS} by default)`));
});

/** A provider at OpenAI's root. */
const OPENAI: ResolvedProvider = {
  name: "openai",
  kind: "openai",
  baseUrl: DEFAULT_BASE_URLS.openai!,
  apiKey: undefined,
  apiKeyEnv: undefined,
  headers: {},
};

/** What the real `upstreamFetch` throws when `fetch` fails so, as `attempt.ts` names it. */
async function fetchFailure(
  result: "unreachable" | "connect_timeout" | "header_timeout",
  fetch: UpstreamFetch,
  timeoutMs = DEFAULTS.upstreamTimeoutMs,
) {
  // The header deadline's shared timer does not keep a test's event loop alive; this one does.
  const alive = setTimeout(() => {}, 10_000);
  const error = await upstreamFetch({
    provider: OPENAI,
    path: "/v1/chat/completions",
    body: "{}",
    signal: new AbortController().signal,
    fetch,
    timeoutMs,
    connectTimeoutMs: DEFAULTS.connectTimeoutMs,
  }).then(() => null, (e) => e).finally(() => clearTimeout(alive));
  assert.ok(error !== null, result);
  return new AttemptFailed(result, 0, error);
}

/** What the real `firstChunk` throws for a stream whose first read is `first`. */
async function firstChunkFailure(first: string | null, idle = false) {
  const h = await makeHarness();
  try {
    const life = new Lifecycle(h.deps, (await chatRequestOf(h)).request, true);
    if (idle) life.streamEnded(streamIdleTimeout("anthropic", DEFAULTS.streamIdleTimeoutMs));
    const codec = upstreamCodec("anthropic_messages", { providerName: "anthropic" });
    const chunks = first === null ? [] : [new TextEncoder().encode(first)];
    const reader: ChunkReader<Uint8Array> = {
      read: () => Promise.resolve(chunks.shift() ?? null),
      cancel: () => Promise.resolve(),
    };
    const check = { life, provider: "anthropic", codec };
    const error = await firstChunk(reader, { ...check, headers: new Headers() })
      .then(() => null, (e) => e);
    assert.ok(error instanceof AttemptFailed);
    return error;
  } finally {
    await h.close();
  }
}

Deno.test("the failure table's statuses are what finalError produces", async () => {
  const text = await docsPage("/reliability");
  const status = (code: number, headers: Record<string, string> = {}) => {
    const h = new Headers(headers);
    const error = upstreamError({ provider: "openai", status: code, message: "x", headers: h });
    return new AttemptFailed("retryable_status", code, error);
  };
  const outcomeOf = (kind: string, code: string | null) =>
    code === "stream_incomplete"
      ? "upstream_cut"
      : kind === "timeout"
      ? "timeout"
      : "upstream_error";
  const check = (id: string, failure: AttemptFailed, attempts = ATTEMPTS) => {
    const error = finalError(failure, attempts);
    const { type, code } = openaiErrorBody(error).error;
    assertRow(text, id, {
      status: error.status,
      openai: { type, code },
      anthropic: anthropicErrorType(error.kind),
      outcome: outcomeOf(error.kind, error.code),
    });
  };
  check("429_long", status(429, { "retry-after": "60" }), 1);
  assert.ok(failureCells(text, "429_long")[4]!.includes("<code>retry-after: 60</code>"));
  check("429", status(429));
  for (const code of [529, 503, 500, 502, 504]) check(String(code), status(code));
  const refused = () =>
    Promise.reject(new Deno.errors.ConnectionRefused("Connection refused (os error 111)"));
  const slow = () => Promise.reject(new ConnectTimeoutError("https://api.openai.com:443", 1));
  const hang: UpstreamFetch = (_url, init) =>
    new Promise((_, reject) =>
      init.signal?.addEventListener("abort", () => reject(new Error("x")))
    );
  const overloaded = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
  const built: [string, AttemptFailed][] = [
    ["unreachable", await fetchFailure("unreachable", refused)],
    ["connect_timeout", await fetchFailure("connect_timeout", slow)],
    ["header_timeout", await fetchFailure("header_timeout", hang, 1)],
    ["cut_first", await firstChunkFailure(null, false)],
    ["silent_first", await firstChunkFailure(null, true)],
    [
      "error_event",
      await firstChunkFailure(`event: error\ndata: ${JSON.stringify(overloaded)}\n\n`),
    ],
  ];
  for (const [id, failure] of built) {
    check(id, failure);
    // The example messages are the code's own, at the default settings.
    const shown = finalError(failure, ATTEMPTS).message
      .replace("within 1 ms", `within ${DEFAULTS.upstreamTimeoutMs} ms`);
    assert.equal(failureCells(text, id)[6], `<small>${escapeHtml(shown)}</small>`, id);
  }
  for (const id of ["idle_mid", "cut_mid", "shutdown_mid"]) {
    assert.ok(failureCells(text, id)[1]!.startsWith("<code>200</code>, then"), id);
  }
});

/** How the fake upstream answers: an error status, no headers ever, or a stream that never sends
 * its first event. */
type Mode = { status: number; type: string; headers?: Record<string, string> } | "hang" | "silent";

/** One request for claude-sonnet-5 (an Anthropic model) on `route`, as failure row `id`: what its
 * client saw, and its ledger outcome. */
async function call(h: Harness, id: string, route: string, stream = false) {
  const anthropic = route === "/v1/messages";
  const response = await h.request(route, {
    method: "POST",
    headers: anthropic
      ? { "x-api-key": h.key, "anthropic-version": "2023-06-01" }
      : { authorization: `Bearer ${h.key}` },
    json: {
      model: "claude-sonnet-5",
      max_tokens: 16,
      stream,
      messages: [{ role: "user", content: "hi" }],
    },
  });
  const { error } = await response.json();
  const requestId = response.headers.get("x-request-id");
  return {
    id,
    route,
    anthropic,
    status: response.status,
    type: error?.type as string,
    code: anthropic ? null : error?.code as string,
    retryAfter: response.headers.get("retry-after"),
    outcome: h.rows.find((row) => row.requestId === requestId)?.outcome,
  };
}

const ROUTES = ["/v1/messages", "/v1/chat/completions"];

/** Every failure a live gateway can be driven into here, on both envelopes. */
async function liveFailures() {
  let mode: Mode = "hang";
  const upstream = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      await req.body?.cancel();
      if (mode === "hang") {
        await new Promise((resolve) => req.signal.addEventListener("abort", resolve));
        return new Response(null, { status: 504 });
      }
      if (mode === "silent") {
        return new Response(new ReadableStream(), {
          headers: { "content-type": "text/event-stream" },
        });
      }
      const body = { type: "error", error: { type: mode.type, message: "Failing on purpose" } };
      return Response.json(body, { status: mode.status, headers: mode.headers });
    },
  );
  const url = `http://127.0.0.1:${upstream.addr.port}`;
  const env = {
    ...upstreamEnv(url),
    GATEHOUSE_UPSTREAM_TIMEOUT_MS: "300",
    GATEHOUSE_STREAM_IDLE_TIMEOUT_MS: "300",
  };
  const h = await makeHarness({ demo: false, env });
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  closed.close();
  const down = await makeHarness({
    demo: false,
    env: upstreamEnv(`http://127.0.0.1:${closed.addr.port}`),
  });
  const seen: Awaited<ReturnType<typeof call>>[] = [];
  const each = async (id: string, harness = h, stream = false) => {
    for (const route of ROUTES) {
      resetHealth(harness);
      seen.push(await call(harness, id, route, stream));
    }
  };
  try {
    const statuses: [string, Mode][] = [
      ["429_long", { status: 429, type: "rate_limit_error", headers: { "retry-after": "60" } }],
      ["529", { status: 529, type: "overloaded_error" }],
      ["503", { status: 503, type: "api_error" }],
      ["500", { status: 500, type: "api_error" }],
      ["502", { status: 502, type: "api_error" }],
      ["504", { status: 504, type: "timeout_error" }],
    ];
    for (const [id, m] of statuses) {
      mode = m;
      await each(id);
    }
    mode = "hang";
    await each("header_timeout");
    mode = "silent";
    await each("silent_first", h, true);
    await each("unreachable", down);
    const deployment = h.deps.catalog.resolve("claude-sonnet-5")!.deployment.id;
    for (const route of ROUTES) {
      resetHealth(h);
      h.deps.health.begin(deployment).failed("failing on purpose", 60_000);
      seen.push(await call(h, "no_healthy", route));
    }
    await h.deps.inflight.drain(0);
    for (const route of ROUTES) seen.push(await call(h, "shutdown", route));
    const ready = await h.request("/readyz");
    assert.equal(ready.status, 503);
    assert.match((await ready.json()).reasons[0], /^shutting down: SIGTERM received/);
  } finally {
    await h.close();
    await down.close();
    await upstream.shutdown();
  }
  return seen;
}

Deno.test("a live gateway answers each failure as the table says", async () => {
  const text = await docsPage("/reliability");
  for (const seen of await liveFailures()) {
    const { id, status, type, code, outcome } = seen;
    const envelope = seen.anthropic ? { anthropic: type } : { openai: { type, code } };
    assertRow(text, id, { status, outcome, ...envelope });
    const retry = /retry-after: (\d+)/.exec(failureCells(text, id)[4]!)?.[1] ?? null;
    assert.equal(retry === null, seen.retryAfter === null, `${id}: retry-after`);
  }
});
