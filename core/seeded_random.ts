/**
 * A small seeded generator (mulberry32) for tests that search with random inputs: the same seed
 * gives the same sequence on every run, so a failure names a sequence that can be replayed.
 * @module
 */

/** Numbers in [0, 1) from `seed`, the same ones on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
