/**
 * A gateway whose Claude model's Anthropic deployments are both down, so every request for it is
 * answered by its GPT fallback (issue #16):
 *
 * - `claude-sonnet-5` is deployed on `anthropic-a` (a port nothing listens on: connection
 *   refused) and `anthropic-b` (a fake answering every request 529 `overloaded_error`), with
 *   `fallbacks: ["gpt-5"]`;
 * - `gpt-5` is on `openai`, a scripted upstream speaking the real OpenAI wire (`chat` or
 *   `responses`, as the rig is told).
 *
 * The providers are reached through their catalog `base_url`s: the harness's
 * GATEHOUSE_*_URL overrides would point every provider of a kind at one place.
 * @module
 */
import assert from "node:assert/strict";
import { Catalog } from "../../catalog/catalog.ts";
import { parseCatalogConfig } from "../../catalog/parse_config.ts";
import type { UsageRecord } from "../../store/store.ts";
import { type Harness, listen, makeHarness } from "../harness.ts";
import { type FakeServer, startFakeServer } from "../fakes/fake_server.ts";
import { type ScriptedUpstream, startScriptedUpstream } from "../fakes/scripted_upstream.ts";

/** The Claude model the clients ask for. */
export const CLAUDE = "claude-sonnet-5";
/** Its fallback, the GPT model that answers. */
export const GPT = "gpt-5";
/** What the overloaded Anthropic deployment answers, as the Anthropic API does. */
export const OVERLOADED = {
  type: "error",
  error: { type: "overloaded_error", message: "Overloaded" },
};

/** The OpenAI wire `gpt-5` is called with upstream. */
export type OpenaiWire = "chat" | "responses";

/** A running gateway with both Anthropic deployments down. */
export interface FallbackRig {
  h: Harness;
  /** The gateway root a client calls. */
  url: string;
  /** The scripted OpenAI upstream behind `gpt-5`. */
  openai: ScriptedUpstream;
  /** The Anthropic fake answering 529. */
  overloaded: FakeServer;
  /** The upstream path `gpt-5` is called on (`/v1/chat/completions` or `/v1/responses`). */
  openaiPath: string;
  close(): Promise<void>;
}

/** A loopback port nothing listens on (bound, then released). */
function deadPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

function catalogOf(refused: string, overloaded: string, openai: string, wire: OpenaiWire) {
  const anthropic = (base_url: string) => ({
    kind: "anthropic",
    base_url,
    api_key_env: "ANTHROPIC_API_KEY",
  });
  const config = parseCatalogConfig({
    providers: {
      "anthropic-a": anthropic(refused),
      "anthropic-b": anthropic(overloaded),
      openai: { kind: "openai", base_url: openai, api_key_env: "OPENAI_API_KEY" },
    },
    models: [
      {
        id: CLAUDE,
        deployments: [{ provider: "anthropic-a" }, { provider: "anthropic-b" }],
        fallbacks: [GPT],
        endpoint_types: ["anthropic", "openai"],
        context_window: 1_000_000,
        pricing: { input: 3, cached_input: 0.3, cache_write: 3.75, output: 15 },
      },
      {
        id: GPT,
        provider: "openai",
        endpoint_types: ["openai", "anthropic"],
        openai_wire: wire,
        context_window: 400_000,
        pricing: { input: 1.25, cached_input: 0.125, output: 10 },
      },
    ],
    setup_defaults: { flagship: GPT, previous: GPT, previous_mini: GPT },
  }, "fallback rig catalog");
  return config;
}

/** Starts the fakes and a listening gateway in front of them. */
export async function startFallbackRig(wire: OpenaiWire = "chat"): Promise<FallbackRig> {
  const openai = startScriptedUpstream();
  const overloaded = startFakeServer(
    "overloaded anthropic",
    () => Response.json(OVERLOADED, { status: 529 }),
  );
  const env: Record<string, string> = {
    ANTHROPIC_API_KEY: "sk-ant-upstream",
    OPENAI_API_KEY: "sk-upstream-openai",
    GATEHOUSE_RETRIES: "1",
    GATEHOUSE_COOLDOWN_SECONDS: "1",
  };
  const config = catalogOf(`http://127.0.0.1:${deadPort()}`, overloaded.url, openai.url, wire);
  const catalog = new Catalog(config, (name) => env[name]);
  const h = await makeHarness({ demo: false, catalog, env });
  const server = listen(h);
  return {
    h,
    url: server.url,
    openai,
    overloaded,
    openaiPath: wire === "chat" ? "/v1/chat/completions" : "/v1/responses",
    async close() {
      await server.close();
      await h.close();
      await openai.close();
      await overloaded.close();
    },
  };
}

/** A failed attempt on one of the Anthropic deployments, as the ledger records it. */
const ANTHROPIC_FAILURES = {
  [`${CLAUDE}@anthropic-a`]: { provider: "anthropic-a", status: 0, result: "unreachable" },
  [`${CLAUDE}@anthropic-b`]: { provider: "anthropic-b", status: 529, result: "retryable_status" },
} as const;

/** Asserts `row` is a request on `route` for the Claude model that its GPT fallback answered: one failed attempt on each Anthropic deployment (refused, 529; in either order: the
 * pick among equals is random), then an `ok` one on `openai`. Holds for the first
 * GATEHOUSE_COOLDOWN_FAILURES (3) requests; after that the Anthropic deployments cool down and
 * are skipped. */
export function assertFellBack(row: UsageRecord, route = "/v1/messages"): void {
  const trail = JSON.stringify(row);
  assert.equal(row.route, route, trail);
  assert.equal(row.model, CLAUDE, trail);
  assert.equal(row.servedModel, GPT, trail);
  assert.equal(row.upstream, "openai", trail);
  assert.equal(row.outcome, "ok", trail);
  assert.equal(row.status, 200, trail);
  const log = row.attemptLog ?? [];
  assert.equal(row.attempts, log.length, trail);
  const last = log.at(-1);
  assert.deepEqual(
    last && [last.deployment, last.provider, last.model, last.status, last.result],
    [`${GPT}@openai`, "openai", GPT, 200, "ok"],
    trail,
  );
  for (const attempt of log.slice(0, -1)) {
    const expected = ANTHROPIC_FAILURES[attempt.deployment as keyof typeof ANTHROPIC_FAILURES];
    assert.ok(expected, `an attempt on an unexpected deployment: ${trail}`);
    assert.deepEqual(
      [attempt.provider, attempt.model, attempt.status, attempt.result],
      [expected.provider, CLAUDE, expected.status, expected.result],
      trail,
    );
  }
  assert.deepEqual(
    log.slice(0, -1).map((a) => a.deployment).sort(),
    Object.keys(ANTHROPIC_FAILURES).sort(),
    `one attempt on each Anthropic deployment, then the fallback: ${trail}`,
  );
}
