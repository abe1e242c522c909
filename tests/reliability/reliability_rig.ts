/**
 * Rig for the upstream-reliability tests: a gateway (tests/harness.ts) served on loopback over a
 * catalog of several deployments, each provider a fault fake (`fault_upstream.ts`):
 *
 * | model           | deployments                                   | notes                        |
 * | --------------- | --------------------------------------------- | ---------------------------- |
 * | `gpt-a`         | openai-a (chat wire)                          | one deployment               |
 * | `gpt-r`         | openai-a (Responses wire)                     | one deployment               |
 * | `claude-a`      | anthropic-a                                   | one deployment               |
 * | `gpt-x`         | openai-a ×3, openai-b ×1                      | weighted                     |
 * | `claude-x`      | anthropic-a                                   | fallbacks `gpt-x`            |
 * | `claude-dead`   | anthropic-dead (refuses)                      | fallbacks `gpt-x`            |
 * | `gpt-dead`      | dead (weight 10⁶, so first), openai-b         | refused, then the other      |
 * | `gpt-silent`    | silent https (weight 10⁶), openai-b           | connect timeout, then other  |
 * | `gpt-small`     | openai-a, window 1000, overflow → `gpt-big`   |                              |
 * | `claude-small`  | anthropic-a, window 1000, overflow → `gpt-big`|                              |
 * | `gpt-small-off` | openai-a, window 1000, fallbacks `gpt-big`    | no overflow flag             |
 * | `gpt-big`       | openai-b, window 200000                       |                              |
 *
 * Each client protocol is called passthrough and translated ({@link ROUTES}). Also here: a URL
 * nothing listens on (connection refused), and a listener that accepts and never says a word (an
 * https:// URL on it never completes its TLS handshake: a connect timeout).
 * @module
 */
import assert from "node:assert/strict";
import { Catalog } from "../../catalog/catalog.ts";
import { parseCatalogConfig } from "../../catalog/parse_config.ts";
import type { CatalogConfigInput } from "../../catalog/schema.ts";
import type { UsageRecord } from "../../store/store.ts";
import { type Harness, listen, makeHarness, resetHealth } from "../harness.ts";
import { type Ask, bodyFor, PATH, type Wire } from "../governance/gov_kit.ts";
import { closeQuietly, type FaultUpstream, startFaultUpstream } from "./fault_upstream.ts";

export { type Ask, bodyFor, PATH, type Wire } from "../governance/gov_kit.ts";

/** Prices of the models, per million tokens. */
export const GPT_PRICES = { input: 1, output: 2 };
export const CLAUDE_PRICES = { input: 30, output: 70 };

/** A client protocol, the model it calls and which fake serves that model. */
export interface Route {
  name: string;
  wire: Wire;
  model: string;
  upstream: "a" | "claude";
  /** Whether the upstream speaks the client's wire (its bytes are forwarded). */
  passthrough: boolean;
}

const route = (
  name: string,
  wire: Wire,
  model: string,
  upstream: Route["upstream"],
  passthrough: boolean,
): Route => ({ name, wire, model, upstream, passthrough });

/** Every client protocol, passthrough and translated, each on a one-deployment model. */
export const ROUTES: readonly Route[] = [
  route("chat passthrough", "chat", "gpt-a", "a", true),
  route("chat → messages", "chat", "claude-a", "claude", false),
  route("messages passthrough", "messages", "claude-a", "claude", true),
  route("messages → chat", "messages", "gpt-a", "a", false),
  route("responses passthrough", "responses", "gpt-r", "a", true),
  route("responses → messages", "responses", "claude-a", "claude", false),
];

function catalogInput(
  urls: { a: string; b: string; claude: string; dead: string; silent: string },
) {
  const both = ["openai", "anthropic"] as const;
  const config: CatalogConfigInput = {
    providers: {
      "openai-a": { kind: "openai", base_url: urls.a, api_key_env: "OPENAI_A_KEY" },
      "openai-b": { kind: "openai", base_url: urls.b, api_key_env: "OPENAI_B_KEY" },
      "anthropic-a": { kind: "anthropic", base_url: urls.claude, api_key_env: "ANTHROPIC_A_KEY" },
      "anthropic-dead": { kind: "anthropic", base_url: urls.dead, api_key_env: "ANTHROPIC_A_KEY" },
      dead: { kind: "openai_compatible", base_url: urls.dead, api_key_env: "OPENAI_A_KEY" },
      silent: { kind: "openai_compatible", base_url: urls.silent, api_key_env: "OPENAI_A_KEY" },
    },
    models: [
      { id: "gpt-a", provider: "openai-a", endpoint_types: [...both], pricing: GPT_PRICES },
      {
        id: "gpt-r",
        provider: "openai-a",
        openai_wire: "responses",
        endpoint_types: [...both],
        pricing: GPT_PRICES,
      },
      {
        id: "claude-a",
        provider: "anthropic-a",
        endpoint_types: [...both],
        pricing: CLAUDE_PRICES,
      },
      {
        id: "gpt-x",
        deployments: [{ provider: "openai-a", weight: 3 }, { provider: "openai-b" }],
        endpoint_types: [...both],
        context_window: 200_000,
        pricing: GPT_PRICES,
      },
      {
        id: "claude-x",
        provider: "anthropic-a",
        fallbacks: ["gpt-x"],
        endpoint_types: [...both],
        pricing: CLAUDE_PRICES,
      },
      {
        id: "claude-dead",
        provider: "anthropic-dead",
        fallbacks: ["gpt-x"],
        endpoint_types: [...both],
        pricing: CLAUDE_PRICES,
      },
      {
        id: "gpt-dead",
        deployments: [{ provider: "dead", weight: 1_000_000 }, { provider: "openai-b" }],
        endpoint_types: [...both],
      },
      {
        id: "gpt-silent",
        deployments: [{ provider: "silent", weight: 1_000_000 }, { provider: "openai-b" }],
        endpoint_types: [...both],
      },
      {
        id: "gpt-small",
        provider: "openai-a",
        context_window: 1000,
        fallback_on_context_overflow: true,
        fallbacks: ["gpt-big"],
        endpoint_types: [...both],
      },
      {
        id: "claude-small",
        provider: "anthropic-a",
        context_window: 1000,
        fallback_on_context_overflow: true,
        fallbacks: ["gpt-big"],
        endpoint_types: [...both],
      },
      {
        id: "gpt-small-off",
        provider: "openai-a",
        context_window: 1000,
        fallbacks: ["gpt-big"],
        endpoint_types: [...both],
      },
      {
        id: "gpt-big",
        provider: "openai-b",
        context_window: 200_000,
        endpoint_types: [...both],
        pricing: GPT_PRICES,
      },
    ],
    setup_defaults: { flagship: "gpt-x", previous: "gpt-a", previous_mini: "gpt-a" },
  };
  return parseCatalogConfig(config, "reliability catalog");
}

/** A running gateway over the fault fakes. */
export interface Rig {
  h: Harness;
  url: string;
  /** openai-a, openai-b, anthropic-a. */
  a: FaultUpstream;
  b: FaultUpstream;
  claude: FaultUpstream;
  silent: SilentListener;
  /** The fake serving `route`. */
  fakeOf(route: Route): FaultUpstream;
  /** POSTs a `wire` request for `model` as the harness's key. */
  send(wire: Wire, model: string, ask?: Ask, signal?: AbortSignal): Promise<Response>;
  /** GETs `path` with the admin key. */
  admin(path: string): Promise<Response>;
  /** The ledger row of the request `response` answered (waits for its settle). */
  row(response: Response): Promise<UsageRecord>;
  /** The `warn` line each failed attempt of request `requestId` logged. */
  warnings(requestId: string): Array<Record<string, unknown>>;
  /** Fresh health, empty fault queues, forgotten fake requests. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts the fakes and a gateway over them; `env` adds gateway settings. */
export async function startRig(env: Record<string, string> = {}): Promise<Rig> {
  const a = startFaultUpstream();
  const b = startFaultUpstream();
  const claude = startFaultUpstream();
  const silent = startSilentListener();
  const catalogEnv: Record<string, string> = {
    OPENAI_A_KEY: "sk-a",
    OPENAI_B_KEY: "sk-b",
    ANTHROPIC_A_KEY: "sk-ant-a",
  };
  const catalog = new Catalog(
    catalogInput({ a: a.url, b: b.url, claude: claude.url, dead: deadUrl(), silent: silent.url }),
    (name) => catalogEnv[name],
  );
  const h = await makeHarness({ demo: false, catalog, env: { ...catalogEnv, ...env } });
  const server = listen(h);
  const rowOf = async (id: string): Promise<UsageRecord> => {
    for (let waited = 0; waited < 5000; waited += 10) {
      const found = h.rows.filter((row) => row.requestId === id);
      if (found.length > 0) {
        assert.equal(found.length, 1, `one ledger row for ${id}`);
        return found[0]!;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no ledger row for ${id}`);
  };
  return {
    h,
    url: server.url,
    a,
    b,
    claude,
    silent,
    fakeOf: (route) => route.upstream === "a" ? a : claude,
    send(wire, model, ask = {}, signal) {
      return fetch(`${server.url}${PATH[wire]}`, {
        method: "POST",
        headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json" },
        body: JSON.stringify(bodyFor(wire, model, ask)),
        signal,
      });
    },
    admin: (path) =>
      fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${h.adminKey}` } }),
    row(response) {
      const id = response.headers.get("x-request-id");
      assert.ok(id, "the response names its request id");
      return rowOf(id);
    },
    warnings: (requestId) =>
      h.logs
        .filter((line) =>
          line.level === "warn" && line.message === "upstream attempt failed" &&
          line.fields?.requestId === requestId
        )
        .map((line) => ({ message: line.message, ...line.fields })),
    reset() {
      resetHealth(h);
      for (const fake of [a, b, claude]) fake.clear();
    },
    async close() {
      await server.close();
      await h.close();
      silent.close();
      await Promise.all([a.close(), b.close(), claude.close()]);
    },
  };
}

/** The answer's text in `wire`'s whole (not streamed) body. */
export function answerText(wire: Wire, body: Record<string, unknown>): string {
  const json = body as {
    choices?: Array<{ message?: { content?: string } }>;
    content?: Array<{ type: string; text?: string }>;
    output?: Array<{ content?: Array<{ text?: string }> }>;
  };
  switch (wire) {
    case "chat":
      return json.choices?.[0]?.message?.content ?? "";
    case "messages":
      return (json.content ?? []).map((block) => block.text ?? "").join("");
    case "responses":
      return (json.output ?? []).flatMap((item) => item.content ?? []).map((part) =>
        part.text ?? ""
      ).join("");
  }
}

/** Waits `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A root URL nothing listens on: every connection is refused. */
export function deadUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  return `http://127.0.0.1:${port}`;
}

/** A listener that accepts connections and never writes: TLS to it never completes. */
export interface SilentListener {
  /** `https://127.0.0.1:PORT`. */
  readonly url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): void;
}

/** Starts a {@link SilentListener}. */
export function startSilentListener(): SilentListener {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open: Deno.Conn[] = [];
  (async () => {
    try {
      for await (const conn of listener) open.push(conn);
    } catch {
      // The listener closed.
    }
  })();
  return {
    url: `https://127.0.0.1:${listener.addr.port}`,
    get accepted() {
      return open.length;
    },
    close() {
      listener.close();
      open.forEach(closeQuietly);
    },
  };
}
