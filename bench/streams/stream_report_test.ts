import assert from "node:assert/strict";
import { formatSummary, type RunFigures, summarize } from "./stream_report.ts";

/** A run of 4 streams of 10 chunks, 500 ms apart, one of which failed. */
function figures(target: string, cpuSeconds: Record<string, number>): RunFigures {
  const ok = { ok: true, maxGapMs: 520, maxGapAt: 1500, reads: 10, firstByteMs: 12, error: null };
  return {
    target,
    reader: "raw",
    streams: 4,
    chunks: 10,
    intervalMs: 500,
    rampMs: 1000,
    promptBytes: 0,
    seconds: 6,
    startedAt: 0,
    outcomes: [ok, ok, { ...ok, firstByteMs: 10_040 }, {
      ok: false,
      maxGapMs: 0,
      maxGapAt: 0,
      reads: 0,
      firstByteMs: 0,
      error: "HTTP 504",
    }],
    rss: { idle: 100, peak: 101, after: 100, settled: 100, afterGc: null },
    cpuSeconds,
    inside: null,
    lowered: null,
  };
}

const machine = { bench: 0.2, interrupts: 0.1, others: 0, stolen: 0 };

Deno.test("CPU per chunk counts the measured process over the chunks of the completed streams, and against the upstream", () => {
  const result = summarize(
    figures("gatehouse", { upstream: 0.6, gatehouse: 1.2, ...machine }),
  );
  // 1.2 s over 3 completed streams × 10 chunks: 40,000 µs a chunk, twice the upstream's.
  assert.deepEqual(result.cpuPerChunk, { us: 40_000, timesUpstream: 2 });
  assert.equal(result.completed, 3);
});

Deno.test("a direct run's CPU per chunk is the upstream's own", () => {
  const result = summarize(figures("direct", { upstream: 0.3, ...machine }));
  assert.deepEqual(result.cpuPerChunk, { us: 10_000, timesUpstream: 1 });
});

Deno.test("the summary table shows CPU per chunk beside the CPU seconds", () => {
  const result = summarize(figures("proxy", { upstream: 0.6, proxy: 0.9, ...machine }));
  const [header, line] = formatSummary([result]).split("\n");
  assert.match(header!, /CPU µs\/chunk \(× upstream's\)/);
  assert.match(line!, / 30000 \(1\.5\) +0\.6 \/ 0\.9 \/ 0\.2 \/ 0\.1 \/ 0 \/ 0$/);
});

Deno.test("the time to each completed stream's first bytes is summed up and shown", () => {
  const result = summarize(figures("gatehouse", { upstream: 0.6, gatehouse: 1.2, ...machine }));
  // Two streams began at once, one after a 10 s connect that was retried; the failed one is not
  // counted.
  assert.deepEqual(result.firstByteMs, { p50: 12, p99: 10_040, max: 10_040 });
  const [header, line] = formatSummary([result]).split("\n");
  assert.match(header!, /gap p50\/p99\/max ms  first byte p50\/p99\/max ms  RSS/);
  assert.match(line!, / 20\/20\/20 +12\/10040\/10040 +100\/101\/100\/100 /);
});
