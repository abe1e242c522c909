/**
 * Shared rig for the key-policy end-to-end tests: a gateway (its default Governor, on an
 * optional injectable clock) served over HTTP, whose providers are one scripted fake upstream;
 * keys made with a policy; request bodies for the three client protocols; readers for streamed
 * answers and error envelopes.
 *
 * The upstream answers `You said: <first line of the user text>`, streamed one word per event
 * (`paced_upstream.ts`), so the length of the prompt sets the number of streamed events.
 * @module
 */
import assert from "node:assert/strict";
import { countTokens } from "gpt-tokenizer";
import type { Policy } from "../../governance/policy.ts";
import type { UsageRecord } from "../../store/store.ts";
import { type Pace, type PacedUpstream, startPacedUpstream } from "./paced_upstream.ts";
import { type Harness, listen, makeHarness, upstreamEnv } from "../harness.ts";
import type { SseEvent } from "../../sse/parse_sse.ts";
import { readEvents } from "../translation_e2e/helpers.ts";

/** The three client protocols. */
export type Wire = "chat" | "messages" | "responses";

/** A client protocol and the catalog model it calls. */
export interface Route {
  name: string;
  wire: Wire;
  model: string;
}

/** Each protocol's route. */
export const PATH: Record<Wire, string> = {
  chat: "/v1/chat/completions",
  messages: "/v1/messages",
  responses: "/v1/responses",
};

export const WIRES: readonly Wire[] = ["chat", "messages", "responses"];

/** Same wire on both sides: the bytes are forwarded. */
export const PASSTHROUGH: Record<Wire, Route> = {
  chat: { name: "chat passthrough", wire: "chat", model: "gpt-5" },
  messages: { name: "messages passthrough", wire: "messages", model: "claude-sonnet-5" },
  responses: { name: "responses passthrough", wire: "responses", model: "gpt-5.5-large" },
};

/** Another wire upstream: the answer is translated. */
export const TRANSLATED: Record<Wire, Route> = {
  chat: { name: "chat → Anthropic", wire: "chat", model: "claude-sonnet-5" },
  messages: { name: "messages → chat", wire: "messages", model: "gpt-5" },
  responses: { name: "responses → Anthropic", wire: "responses", model: "claude-sonnet-5" },
};

/** Every route: a passthrough and a translated one per protocol. */
export const ROUTES: readonly Route[] = WIRES.flatMap((w) => [PASSTHROUGH[w], TRANSLATED[w]]);

/** What a request body asks. */
export interface Ask {
  stream?: boolean;
  /** The user text (its first line is echoed back, word by word). */
  text?: string;
  /** The output limit, in the protocol's own field; absent: none (messages: 64). */
  maxTokens?: number;
}

/** A request body for `wire`. */
export function bodyFor(wire: Wire, model: string, ask: Ask = {}): Record<string, unknown> {
  const stream = ask.stream ?? false;
  const content = ask.text ?? "Hi";
  switch (wire) {
    case "chat":
      return {
        model,
        stream,
        messages: [{ role: "user", content }],
        ...(ask.maxTokens === undefined ? {} : { max_tokens: ask.maxTokens }),
      };
    case "messages":
      return {
        model,
        stream,
        max_tokens: ask.maxTokens ?? 64,
        messages: [{ role: "user", content }],
      };
    case "responses":
      return {
        model,
        stream,
        input: content,
        ...(ask.maxTokens === undefined ? {} : { max_output_tokens: ask.maxTokens }),
      };
  }
}

/** `count` distinct short words (one o200k token each with its leading space). */
export function words(count: number): string {
  const pool = [
    "alpha",
    "bravo",
    "delta",
    "echo",
    "golf",
    "hotel",
    "india",
    "kilo",
    "lima",
    "mike",
  ];
  return Array.from({ length: count }, (_, i) => pool[i % pool.length]).join(" ");
}

/** A mutable clock in unix milliseconds. */
export interface Clock {
  t: number;
  now: () => number;
}

/** A clock standing at `t`. */
export function clockAt(t: number): Clock {
  const clock: Clock = { t, now: () => clock.t };
  return clock;
}

/** A running gateway under test. */
export interface Gov {
  h: Harness;
  url: string;
  upstream: PacedUpstream;
  /** A new key with `policy` (in `team` when given); its id and secret. */
  key(policy: Policy, team?: string): Promise<{ id: string; secret: string }>;
  /** POSTs `body` to `route`'s path as `secret`. */
  send(wire: Wire, secret: string, body: unknown, signal?: AbortSignal): Promise<Response>;
  /** GETs `path` as `secret`. */
  get(path: string, secret: string, headers?: Record<string, string>): Promise<Response>;
  /** The ledger rows of key `id`. */
  rows(id: string): UsageRecord[];
  close(): Promise<void>;
}

/** Starts a gateway whose providers are a paced scripted upstream (`pace`: events per network
 * chunk, delay, holding), with the default Governor on `clock` when given. */
export async function startGov(
  options: { clock?: Clock; pace?: Partial<Pace> } = {},
): Promise<Gov> {
  const upstream = startPacedUpstream(options.pace);
  const h = await makeHarness({
    demo: false,
    env: upstreamEnv(upstream.url),
    clock: options.clock?.now,
  });
  const server = listen(h);
  let n = 0;
  return {
    h,
    url: server.url,
    upstream,
    async key(policy, team) {
      const { record, key } = await h.deps.store.createKey({
        name: `gov-${++n}`,
        policy,
        team: team ?? null,
      });
      return { id: record.id, secret: key };
    },
    send(wire, secret, body, signal) {
      return fetch(`${server.url}${PATH[wire]}`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify(body),
        signal,
      });
    },
    get(path, secret, headers = {}) {
      return fetch(`${server.url}${path}`, {
        headers: { authorization: `Bearer ${secret}`, ...headers },
      });
    },
    rows: (id) => h.rows.filter((row) => row.keyId === id),
    async close() {
      await server.close();
      await h.close();
      await upstream.close();
    },
  };
}

/** The fields of either error envelope. */
interface ErrorBody {
  type?: unknown;
  error?: { type: string; code?: string | null; message: string; param?: unknown };
}

/** An error body in `wire`'s envelope: its type, code and message (fails on another shape). */
export function envelopeOf(
  wire: Wire | "openai" | "anthropic",
  body: unknown,
): { type: string; code: string | null; message: string } {
  const { type, error } = body as ErrorBody;
  const shown = JSON.stringify(body);
  assert.equal(typeof error?.message, "string", `an error envelope: ${shown}`);
  assert.equal(typeof error?.type, "string", `an error type: ${shown}`);
  if (wire === "messages" || wire === "anthropic") {
    assert.equal(type, "error", `an Anthropic error envelope: ${shown}`);
    return { type: error!.type, code: null, message: error!.message };
  }
  assert.ok(error && "param" in error && "code" in error, `an OpenAI envelope: ${shown}`);
  return { type: error.type, code: error.code ?? null, message: error.message };
}

/** The error type a refusal of `kind` has on `wire`. */
export function refusalType(wire: Wire, kind: "quota" | "rate_limit" | "permission"): string {
  if (kind === "permission") return "permission_error";
  if (kind === "rate_limit") return "rate_limit_error";
  return wire === "messages" ? "rate_limit_error" : "insufficient_quota";
}

/** How a streamed answer went, read as its client would. */
export interface StreamRead {
  /** The generated text delivered, in order. */
  text: string;
  /** The same text, delta by delta as it came. */
  deltas: string[];
  /** Every event, as parsed. */
  events: SseEvent[];
  /** A clean terminal event, the protocol's terminal error, or neither. */
  ending: "clean" | "error" | "none";
  /** The terminal error's type (chat, messages) or code (responses). */
  errorType?: string;
  errorMessage?: string;
}

/** Reads a whole streamed answer of `wire`. */
export async function readStream(wire: Wire, response: Response): Promise<StreamRead> {
  const events = await readEvents(response);
  const deltas: string[] = [];
  const read: StreamRead = { text: "", deltas, events, ending: "none" };
  for (const event of events) {
    if (wire === "chat" && event.data === "[DONE]") {
      read.ending = read.ending === "error" ? "none" : "clean";
      continue;
    }
    const data = JSON.parse(event.data);
    const type = event.event ?? data.type;
    if (wire === "chat") {
      if (data.error) {
        Object.assign(read, { ending: "error", errorType: data.error.type });
        read.errorMessage = data.error.message;
      }
      deltas.push(data.choices?.[0]?.delta?.content ?? "");
    } else if (wire === "messages") {
      if (type === "content_block_delta") deltas.push(data.delta?.text ?? "");
      if (type === "message_stop") read.ending = "clean";
      if (type === "error") {
        Object.assign(read, { ending: "error", errorType: data.error?.type });
        read.errorMessage = data.error?.message;
      }
    } else {
      if (type === "response.output_text.delta") deltas.push(data.delta ?? "");
      if (type === "response.completed" || type === "response.incomplete") read.ending = "clean";
      if (type === "response.failed") {
        Object.assign(read, { ending: "error", errorType: data.response?.error?.code });
        read.errorMessage = data.response?.error?.message;
      }
    }
  }
  read.text = deltas.join("");
  read.deltas = deltas.filter((delta) => delta !== "");
  return read;
}

/** o200k tokens of `text` (what the gateway meters a stream with). */
export function tokensOf(text: string): number {
  return text === "" ? 0 : countTokens(text);
}

/** Waits (20 ms steps, at most `ms`) until `done()`; returns whether it came true. */
export async function until(done: () => boolean, ms = 3000): Promise<boolean> {
  for (let waited = 0; !done() && waited < ms; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return done();
}

/** Sum of the cost of `rows`. */
export function spentIn(rows: readonly UsageRecord[]): number {
  return rows.reduce((sum, row) => sum + row.cost, 0);
}
