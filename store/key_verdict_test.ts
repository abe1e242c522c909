import assert from "node:assert/strict";
import { keyVerdict } from "./key_verdict.ts";
import type { KeyRecord } from "./store.ts";
import { testKeyRecord } from "./test_records.ts";

const NOW = 1_000_000;

function key(overrides: Partial<KeyRecord> = {}): KeyRecord {
  return testKeyRecord({
    id: "abcdefghij",
    name: "k",
    hint: "gth_abcdefgh…",
    createdAt: 0,
    ...overrides,
  });
}

Deno.test("keyVerdict: a live key with its current secret", () => {
  const record = key({ policy: { expiresAt: NOW + 1 }, teamPolicy: { expiresAt: NOW + 1 } });
  assert.deepEqual(keyVerdict(record, "current", NOW), { record });
});

Deno.test("keyVerdict: revoked wins over everything, with its time", () => {
  const record = key({ revokedAt: 5, policy: { expiresAt: 1 }, rotatedAt: 3 });
  assert.deepEqual(keyVerdict(record, "current", NOW), { reason: "revoked", at: 5 });
  assert.deepEqual(keyVerdict(record, "previous", NOW), { reason: "revoked", at: 5 });
});

Deno.test("keyVerdict: expired at the key's or the team's expiry, the earlier when both passed", () => {
  assert.deepEqual(keyVerdict(key({ policy: { expiresAt: NOW } }), "current", NOW), {
    reason: "expired",
    at: NOW,
  });
  assert.deepEqual(
    keyVerdict(key({ team: "t", teamPolicy: { expiresAt: NOW - 5 } }), "current", NOW),
    { reason: "expired", at: NOW - 5 },
  );
  const both = key({ policy: { expiresAt: NOW - 1 }, teamPolicy: { expiresAt: NOW - 9 } });
  assert.deepEqual(keyVerdict(both, "current", NOW), { reason: "expired", at: NOW - 9 });
  const keyFirst = key({ policy: { expiresAt: NOW - 9 }, teamPolicy: { expiresAt: NOW - 1 } });
  assert.deepEqual(keyVerdict(keyFirst, "current", NOW), { reason: "expired", at: NOW - 9 });
  const teamLater = key({ policy: { expiresAt: NOW - 1 }, teamPolicy: { expiresAt: NOW + 1 } });
  assert.deepEqual(keyVerdict(teamLater, "current", NOW), { reason: "expired", at: NOW - 1 });
});

Deno.test("keyVerdict: the previous secret lives until its grace ends, then is rotated", () => {
  const record = key({ rotatedAt: NOW - 10, previousValidUntil: NOW + 1 });
  assert.deepEqual(keyVerdict(record, "previous", NOW), { record });
  assert.deepEqual(keyVerdict(record, "previous", NOW + 1), { reason: "rotated", at: NOW - 10 });
  assert.deepEqual(keyVerdict(record, "current", NOW + 1), { record });
  const noGrace = key({ rotatedAt: NOW, previousValidUntil: NOW });
  assert.deepEqual(keyVerdict(noGrace, "previous", NOW), { reason: "rotated", at: NOW });
  const expired = key({ rotatedAt: 1, previousValidUntil: 2, policy: { expiresAt: 3 } });
  assert.deepEqual(keyVerdict(expired, "previous", NOW), { reason: "expired", at: 3 });
});
