import assert from "node:assert/strict";
import { seededRandom } from "./seeded_random.ts";

Deno.test("seededRandom: one seed, one sequence, in [0, 1); another seed, another", () => {
  const take = (seed: number) => Array.from({ length: 1_000 }, seededRandom(seed));
  const a = take(7);
  assert.deepEqual(take(7), a);
  assert.notDeepEqual(take(8), a);
  assert.ok(a.every((x) => x >= 0 && x < 1));
  // Spread over the range, not stuck in a corner.
  assert.ok(a.filter((x) => x < 0.5).length > 400 && a.filter((x) => x < 0.5).length < 600);
});
