/**
 * What the suite-wide log scan looks for in a log line: the known secrets of every gateway run,
 * and key material by its shape.
 * @module
 */
import type { CollectedRun } from "./collect.ts";

/** Key material by its shape: a gatehouse key, a provider key (`sk-…`, `sk-ant-…`), a bearer
 * credential, an `Authorization` or `x-api-key` header value, and the sink's `[redacted]`
 * (a leak it caught). */
const SHAPES: Array<[string, RegExp]> = [
  ["gatehouse key", /gth_[a-z0-9]{4,}_[A-Za-z0-9_-]{6,}/],
  ["provider key", /\bsk-[A-Za-z0-9_-]{6,}/],
  ["bearer credential", /\bBearer\s+[A-Za-z0-9_.~+/-]{6,}/i],
  ["authorization header", /\b(authorization|x-api-key)\b["']?\s*[:=]\s*["']?[^\s"',}]{6,}/i],
  ["redacted by the sink", /\[redacted\]/],
];

/** A run of the characters keys are made of: a line's words are looked up in the set of known
 * secrets (thousands of them: one regular expression each would be slow). */
const WORD = /[A-Za-z0-9_-]{3,}/g;
const WORD_ONLY = /^[A-Za-z0-9_-]+$/;

/** One line that holds key material. */
export interface Finding {
  source: string;
  why: string;
  /** The line, cut to 300 characters. */
  line: string;
}

/** Every line of `runs` that holds a secret any run knew, or key material by its shape. */
export function findings(runs: CollectedRun[]): Finding[] {
  const secrets = new Set(runs.flatMap((run) => run.secrets).filter((s) => s.length >= 3));
  // A secret of other characters (a password with punctuation) is looked for as a substring.
  const odd = [...secrets].filter((secret) => !WORD_ONLY.test(secret));
  const found: Finding[] = [];
  for (const run of runs) {
    for (const line of run.lines) {
      let why: string | null = null;
      for (const word of line.match(WORD) ?? []) {
        if (secrets.has(word)) why = "a known secret";
      }
      if (why === null && odd.some((secret) => line.includes(secret))) why = "a known secret";
      why ??= SHAPES.find(([, pattern]) => pattern.test(line))?.[0] ?? null;
      if (why !== null) found.push({ source: run.source, why, line: line.slice(0, 300) });
    }
  }
  return found;
}
