/**
 * Test helpers for the governor: a key record, a resolved model, a fake ledger and a clock.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import { MOCK_PROVIDER } from "../catalog/resolve_provider.ts";
import type { Pricing } from "../catalog/schema.ts";
import { emptyUsage, type Usage } from "../core/response.ts";
import type { AdmissionRequest, Spent } from "../gateway/admission.ts";
import type { KeyRecord, SpendQuery, Store } from "../store/store.ts";
import type { Policy } from "./policy.ts";

/** A live key with `policy`, in `team` under `teamPolicy` when given. */
export function keyWith(
  policy: Policy,
  team: { id: string; policy: Policy } | null = null,
  id = "key_a",
): KeyRecord {
  return {
    id,
    name: id,
    hint: "gth_test…",
    createdAt: 0,
    revokedAt: null,
    lastUsedAt: null,
    admin: false,
    team: team?.id ?? null,
    policy,
    teamPolicy: team?.policy ?? null,
    rotatedAt: null,
    previousValidUntil: null,
  };
}

/** A catalog model `id` at `pricing` (dollars per million tokens). */
export function modelWith(
  id = "gpt-test",
  pricing: Pricing = { input: 1, output: 10 },
  maxOutputTokens?: number,
): ResolvedModel {
  const deployment = { id: `${id}@mock`, provider: MOCK_PROVIDER, upstreamId: id, weight: 1 };
  return {
    requested: id,
    id,
    upstreamId: id,
    provider: MOCK_PROVIDER,
    deployments: [deployment],
    deployment,
    fallbacks: [],
    fallbackOnContextOverflow: false,
    endpointTypes: ["openai"],
    openaiWire: "chat",
    pricing,
    maxOutputTokens,
    entry: null,
    pattern: null,
  };
}

/** An admission request of `key` for `model`: a body of `bodyBytes` bytes asking `maxTokens`. */
export function requestOf(
  key: KeyRecord,
  model: ResolvedModel,
  options: {
    route?: string;
    bodyBytes?: number;
    maxTokens?: number;
    body?: object;
    /** A streamed request (the default), or a whole answer. */
    stream?: boolean;
  } = {},
): AdmissionRequest {
  const stream = options.stream ?? true;
  const body: Record<string, unknown> = { model: model.requested, stream, ...options.body };
  if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
  return {
    requestId: crypto.randomUUID(),
    key,
    model,
    route: options.route ?? "/v1/chat/completions",
    body,
    stream,
    bodyBytes: options.bodyBytes ?? 400,
  };
}

/** What a finished request spent. */
export function spentOf(usage: Partial<Usage>, cost: number, images = 0): Spent {
  return { usage: { ...emptyUsage(), ...usage }, images, cost, outcome: "ok" };
}

/** A ledger answering `spend` from a function of the query, recording the queries. */
export function fakeLedger(
  spend: (query: SpendQuery) => number = () => 0,
): Pick<Store, "spend"> & { queries: SpendQuery[] } {
  const queries: SpendQuery[] = [];
  return {
    queries,
    spend(query: SpendQuery) {
      queries.push(query);
      return Promise.resolve(spend(query));
    },
  };
}

/** A settable clock, unix milliseconds. */
export function fakeClock(start = Date.UTC(2026, 0, 15, 12, 0, 0)): {
  now: () => number;
  set: (ms: number) => void;
  advance: (ms: number) => void;
} {
  let time = start;
  return {
    now: () => time,
    set: (ms) => {
      time = ms;
    },
    advance: (ms) => {
      time += ms;
    },
  };
}
