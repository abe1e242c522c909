import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  digestsEqual,
  generateApiKey,
  generateApiKeyFor,
  hashApiKey,
  KEY_HINT_LENGTH,
  KEY_PREFIX,
  KEY_SECRET_LENGTH,
  keyHint,
  matchStoredHashes,
  parseKeyId,
  randomString,
} from "./api_key.ts";

const FORMAT = /^gth_([a-z2-7]{10})_([0-9A-Za-z]{32})$/;

Deno.test("generateApiKey: gth_ + 10-char id + _ + 32-char base62 secret", () => {
  const generated = generateApiKey();
  const match = FORMAT.exec(generated.key);
  assert.ok(match, `unexpected key format: ${generated.hint}`);
  assert.equal(match[1], generated.id);
  assert.equal(parseKeyId(generated.key), generated.id);
  assert.ok(generated.key.startsWith(KEY_PREFIX));
});

Deno.test("generateApiKey: stores SHA-256 hex of the whole key and a 12-char hint", () => {
  const generated = generateApiKey();
  const expected = createHash("sha256").update(generated.key).digest("hex");
  assert.equal(generated.hash, expected);
  assert.equal(generated.hint, `${generated.key.slice(0, 12)}…`);
  assert.equal(generated.hint.length, KEY_HINT_LENGTH + 1);
  // The hint stops inside the public id: no secret character is ever shown.
  assert.equal(generated.hint, `gth_${generated.id.slice(0, 8)}…`);
});

Deno.test("secret carries at least 190 bits of entropy", () => {
  assert.ok(KEY_SECRET_LENGTH * Math.log2(62) >= 190);
});

Deno.test("randomString: every base62 symbol appears, roughly uniformly, no repeats", () => {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const counts = new Map<string, number>();
  const secrets = new Set<string>();
  const samples = 2000;
  for (let i = 0; i < samples; i++) {
    const secret = ((generateApiKey()).key.split("_")[2]) ?? "";
    secrets.add(secret);
    for (const ch of secret) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  assert.equal(secrets.size, samples);
  assert.equal(counts.size, alphabet.length);
  const expected = (samples * KEY_SECRET_LENGTH) / alphabet.length;
  let chiSquare = 0;
  for (const count of counts.values()) chiSquare += (count - expected) ** 2 / expected;
  // 61 degrees of freedom: the 99.99th percentile is about 115; a biased generator lands far above.
  assert.ok(chiSquare < 130, `chi-square ${chiSquare.toFixed(1)} suggests a biased generator`);
  assert.throws(() => randomString(4, "a"), RangeError);
});

Deno.test("parseKeyId: null for anything outside the format", () => {
  const { key, id } = generateApiKey();
  assert.equal(parseKeyId(key), id);
  for (
    const bad of [
      "",
      "gth_",
      key.slice(0, -1),
      `${key}x`,
      key.replace("gth_", "sk-"),
      key.toUpperCase(),
      `gth_${id.toUpperCase()}_${"a".repeat(32)}`,
      `gth_abcdefghi1_${"a".repeat(32)}`,
      `gth_${id}_${"a".repeat(31)}!`,
      ` ${key}`,
      `Bearer ${key}`,
    ]
  ) {
    assert.equal(parseKeyId(bad), null, `accepted ${JSON.stringify(bad)}`);
  }
});

Deno.test("digestsEqual: equal only for identical digests of equal length", () => {
  const a = hashApiKey("gth_one");
  const b = hashApiKey("gth_two");
  assert.equal(digestsEqual(a, a), true);
  assert.equal(digestsEqual(a, `${a}`), true);
  assert.equal(digestsEqual(a, b), false);
  assert.equal(digestsEqual(a, a.slice(0, -1)), false);
  const flippedLast = a.slice(0, -1) + (a.endsWith("0") ? "1" : "0");
  assert.equal(digestsEqual(a, flippedLast), false);
});

Deno.test("generateApiKeyFor: a new secret under the same id; refuses a malformed id", () => {
  const first = generateApiKey();
  const next = generateApiKeyFor(first.id);
  assert.equal(next.id, first.id);
  assert.equal(parseKeyId(next.key), first.id);
  assert.notEqual(next.key, first.key);
  assert.equal(next.hash, hashApiKey(next.key));
  assert.equal(next.hint, first.hint, "the hint shows only the id, so it stays");
  assert.throws(() => generateApiKeyFor("UPPER"), /"UPPER" is not a key id/);
});

Deno.test("matchStoredHashes: which of the two stored secrets matched, or null", () => {
  const current = generateApiKey();
  const previous = generateApiKeyFor(current.id);
  const other = generateApiKeyFor(current.id);
  assert.equal(matchStoredHashes(current.key, current.hash, previous.hash), "current");
  assert.equal(matchStoredHashes(previous.key, current.hash, previous.hash), "previous");
  assert.equal(matchStoredHashes(other.key, current.hash, previous.hash), null);
  assert.equal(matchStoredHashes(current.key, current.hash, null), "current");
  assert.equal(matchStoredHashes(previous.key, current.hash, null), null);
  assert.equal(matchStoredHashes(current.key, null, null), null, "unknown id");
  const lastChar = current.key.endsWith("a") ? "b" : "a";
  assert.equal(matchStoredHashes(current.key.slice(0, -1) + lastChar, current.hash, null), null);
  // The placeholder compared against for absent hashes is never a real digest.
  assert.equal(matchStoredHashes(current.key, "0".repeat(64), "0".repeat(64)), null);
});

Deno.test("keyHint: first 12 characters and an ellipsis", () => {
  assert.equal(keyHint("gth_abcdefgh_secret"), "gth_abcdefgh…");
});
