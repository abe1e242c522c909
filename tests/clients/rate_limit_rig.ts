/**
 * A gateway whose key has an `rpm` limit that is full when a real client starts, so the client's
 * first request is refused with 429 and it must back off and retry.
 *
 * The window is filled without waiting a minute: the governor's clock (the harness's `clock`) is
 * shifted back while `rpm` cheap requests are made with the limited key, so they count as
 * admitted {@link FILLED_AGO_MS} ago; the clock is then restored. This happens the moment the
 * client's first model request arrives (the gateway holds it until the window is full), so the
 * refusal's `retry-after` does not depend on how long the client took to start: it is always
 * ~{@link WINDOW_FREE_IN_MS}, after which the window is empty again.
 * @module
 */
import assert from "node:assert/strict";
import { type Harness, makeHarness, upstreamEnv } from "../harness.ts";
import type { ScriptedUpstream } from "../fakes/scripted_upstream.ts";

/** How long before the client's first request the filling requests count as admitted. */
export const FILLED_AGO_MS = 58_000;
/** When the filled window frees, after the client's first request. */
export const WINDOW_FREE_IN_MS = 60_000 - FILLED_AGO_MS;

/** One request the client sent through the gateway, with the status it got. */
export interface Seen {
  method: string;
  path: string;
  status: number;
  /** Milliseconds since the rig started serving. */
  at: number;
  headers: Record<string, string>;
  /** The body of a non-2xx answer (the refusal the client read). */
  error?: string;
}

/** The cheap request that fills the window: where it goes and what it sends. */
export interface Filler {
  path: string;
  body: Record<string, unknown>;
}

/** A running gateway with an `rpm`-limited key. */
export interface RateLimitRig {
  h: Harness;
  /** The limited key's secret (give it to the client). */
  key: string;
  /** The limited key's id (ledger rows carry it). */
  keyId: string;
  /** The gateway root the client calls. */
  url: string;
  /** What the client sent, in order (the filling requests are not included). */
  seen: Seen[];
  /** How many upstream LLM steps the filling requests took (the client's come after them). */
  readonly fillerSteps: number;
  /** Why filling the window failed (the client then got a 500 saying so), or null. */
  readonly fillError: unknown;
  close(): Promise<void>;
}

/** How {@link startRateLimitRig} sets up the limit. */
export interface RigOptions {
  /** The key's requests per minute; the window is filled with this many requests. */
  rpm: number;
  /** What each filling request sends. */
  filler: Filler;
  /** The first client request to a path ending in this fills the window first. */
  trigger: string;
}

/** Starts a gateway in front of `upstream` with a key limited to `rpm` requests per minute,
 * whose window is filled (see the module doc) when the client's first model request arrives. */
export async function startRateLimitRig(
  upstream: ScriptedUpstream,
  { rpm, filler, trigger }: RigOptions,
): Promise<RateLimitRig> {
  let shift = 0;
  const h = await makeHarness({
    demo: false,
    env: upstreamEnv(upstream.url),
    clock: () => Date.now() + shift,
  });
  const { record, key } = await h.deps.store.createKey({
    name: "limited",
    policy: { rpm },
  });
  let fillerSteps = 0;
  const fill = async () => {
    shift = -FILLED_AGO_MS;
    try {
      for (let i = 0; i < rpm; i++) {
        const response = await h.request(filler.path, {
          method: "POST",
          headers: { authorization: `Bearer ${key}` },
          json: filler.body,
        });
        const text = await response.text();
        assert.equal(
          response.status,
          200,
          `filling request ${i + 1} of ${rpm}: ${text}`,
        );
      }
    } finally {
      shift = 0;
    }
    fillerSteps = upstream.steps.length;
  };

  const seen: Seen[] = [];
  const start = Date.now();
  let filled: Promise<void> | null = null;
  let fillError: unknown = null;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const path = new URL(req.url).pathname;
      if (req.method === "POST" && path.endsWith(trigger)) {
        try {
          await (filled ??= fill());
        } catch (error) {
          fillError = error;
          return new Response(
            `test rig: filling the rpm window failed: ${error}`,
            { status: 500 },
          );
        }
      }
      const at = Date.now() - start;
      const response = await h.app.fetch(req);
      const entry: Seen = {
        method: req.method,
        path,
        status: response.status,
        at,
        headers: Object.fromEntries(response.headers),
      };
      if (response.status >= 300) entry.error = await response.clone().text();
      seen.push(entry);
      return response;
    },
  );
  return {
    h,
    key,
    keyId: record.id,
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    get fillerSteps() {
      return fillerSteps;
    },
    get fillError() {
      return fillError;
    },
    async close() {
      await server.shutdown();
      await h.close();
    },
  };
}

/** Where a client's model requests went and how the gateway names them. */
export interface ClientRoute {
  /** The path the client posts to (`/v1/messages`, Codex's bare `/responses`). */
  path: string;
  /** The canonical route the ledger records (`/v1/messages`, `/v1/responses`). */
  route: string;
  /** The rate-limit header that counts the requests left (`anthropic-ratelimit-requests-
   * remaining`, `x-ratelimit-remaining-requests`). */
  remainingHeader: string;
}

/** Asserts the client's first request was refused with 429 — `retry-after` when the window
 * frees, `x-should-retry: true`, no requests remaining — and that it then retried once, no
 * sooner than the window freed, and succeeded from then on; asserts the ledger recorded that
 * refusal as the key's one `rejected` row (status 429, no upstream attempt). Returns the refusal
 * and the retry, for the test's further checks. */
export function assertBackedOffOnce(
  rig: RateLimitRig,
  { path, route, remainingHeader }: ClientRoute,
): { refused: Seen; retried: Seen } {
  const calls = rig.seen.filter((s) => s.method === "POST" && s.path.endsWith(path));
  const trail = calls.map((s) => `${s.status} at ${s.at} ms`).join(", ");
  assert.deepEqual(
    calls.map((s) => s.status).slice(0, 2),
    [429, 200],
    `the client's first request must be refused and its retry admitted: ${trail}`,
  );
  assert.ok(
    calls.slice(1).every((s) => s.status === 200),
    `a second 429: ${trail}`,
  );
  const [refused, retried] = [calls[0]!, calls[1]!];
  assert.equal(
    refused.headers["retry-after"],
    String(WINDOW_FREE_IN_MS / 1000),
  );
  assert.equal(refused.headers["x-should-retry"], "true");
  assert.equal(
    refused.headers[remainingHeader],
    "0",
    `${remainingHeader} on the 429`,
  );
  // The window frees WINDOW_FREE_IN_MS after it was filled, just before the refusal.
  assert.ok(
    retried.at - refused.at >= WINDOW_FREE_IN_MS - 100,
    `retried ${retried.at - refused.at} ms after the 429, before the window freed: ${trail}`,
  );
  const rejected = rig.h.rows.filter((r) => r.keyId === rig.keyId && r.outcome === "rejected");
  assert.equal(
    rejected.length,
    1,
    `rejected rows: ${JSON.stringify(rejected)}`,
  );
  const { status, attempts, route: recorded } = rejected[0]!;
  assert.deepEqual(
    [status, attempts, recorded],
    [429, 0, route],
    "the rejected row",
  );
  return { refused, retried };
}
