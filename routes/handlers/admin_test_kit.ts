/**
 * Test helpers for the admin routes: calls with the harness's admin key, and ledger rows.
 * @module
 */
import assert from "node:assert/strict";
import type { Harness } from "../../tests/harness.ts";
import { OUTCOMES, type UsageRecord } from "../../store/store.ts";

/** An admin call's status and JSON body. */
export interface AdminAnswer {
  status: number;
  /** Whatever `Response.json()` gives: tests read it field by field. */
  body: Awaited<ReturnType<Response["json"]>>;
}

/** Calls `path` with the harness's admin key (or `key`), sending `json` when given. */
export async function adminCall(
  h: Harness,
  method: string,
  path: string,
  json?: unknown,
  key = h.adminKey,
): Promise<AdminAnswer> {
  const response = await h.request(path, {
    method,
    headers: { authorization: `Bearer ${key}` },
    ...(json === undefined ? {} : { json }),
  });
  return { status: response.status, body: await response.json() };
}

/** Asserts an OpenAI-envelope error with `status`, and `param`/`code`/message when given. */
export function assertError(
  answer: AdminAnswer,
  status: number,
  expect: { param?: string | null; code?: string; message?: RegExp } = {},
): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  const error = answer.body.error;
  assert.equal(typeof error?.message, "string");
  if (expect.param !== undefined) assert.equal(error.param, expect.param);
  if (expect.code !== undefined) assert.equal(error.code, expect.code);
  if (expect.message !== undefined) assert.match(error.message, expect.message);
}

/** A ledger row for `keyId` costing `cost`, at `time` (default: a second ago). */
export function usageRow(
  keyId: string,
  model: string,
  cost: number,
  time = Date.now() - 1000,
): UsageRecord {
  return {
    requestId: `req_${crypto.randomUUID()}`,
    keyId,
    model,
    servedModel: model,
    upstream: "mock",
    upstreamId: null,
    route: "/v1/chat/completions",
    status: 200,
    outcome: OUTCOMES[0],
    attempts: 1,
    inputTokens: 10,
    outputTokens: 5,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    images: 0,
    cost,
    latencyMs: 12,
    firstByteMs: 3,
    stream: false,
    time,
  };
}

/** The id inside a key (`gth_<id>_<secret>`). */
export const idOf = (key: string): string => key.split("_")[1] ?? "";
