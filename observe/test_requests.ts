/**
 * Requests for observer tests: a ledger row and a settled request from the fields a test cares
 * about, every other field as a streamed chat answer by one attempt has it.
 * @module
 */
import type { UsageRecord } from "../store/store.ts";
import { testKeyRecord } from "../store/test_records.ts";
import type { SettledRequest } from "./observer.ts";

/** A ledger row with `patch` over a streamed `gpt-5` answer from `openai`, one attempt. */
export function testUsageRecord(patch: Partial<UsageRecord> = {}): UsageRecord {
  return {
    requestId: "req_1",
    keyId: "key_1",
    model: "gpt-5",
    servedModel: "gpt-5",
    upstream: "openai",
    upstreamId: null,
    route: "/v1/chat/completions",
    status: 200,
    outcome: "ok",
    attempts: 1,
    inputTokens: 100,
    outputTokens: 20,
    cachedTokens: 40,
    cacheWriteTokens: 0,
    reasoningTokens: 5,
    images: 0,
    cost: 0.0125,
    latencyMs: 300,
    firstByteMs: 120,
    stream: true,
    time: 0,
    ...patch,
  };
}

/** The settled request of `record` with `patch`; its key is `record.keyId`'s, named alice. */
export function testSettled(
  record: UsageRecord,
  patch: Partial<SettledRequest> = {},
): SettledRequest {
  return {
    record,
    key: testKeyRecord({ id: record.keyId, name: "alice", hint: "gth_…", createdAt: 0 }),
    userAgent: null,
    refusal: null,
    limit: null,
    durationMs: 300,
    firstByteMs: 120,
    overheadMs: 0.2,
    upstreamMs: 119.8,
    finishReasons: ["stop"],
    mode: "passthrough",
    ...patch,
  };
}
