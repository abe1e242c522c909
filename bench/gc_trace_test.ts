import assert from "node:assert/strict";
import { gcPerRequest, parseGcTrace } from "./gc_trace.ts";

// Lines as Deno 2.9.6's V8 prints them with --trace-gc-nvp (fields trimmed to the ones read and
// a few beside them).
const SCAVENGE = '[2756:0x55f2b3358000:0]     6712 ms: GC: {"pause":8.36,"mutator":96.1,' +
  '"gc":"s","reduce_memory":false,"reason":"allocation failure","start_object_size":70634176,' +
  '"allocated":24358936,"promoted":2940336,"new_space_survived":3350528,"nodes_promoted":0}';
const MARK_COMPACT = '[2756:0x55f2b3358000:0]     6864 ms: GC: {"pause":20.241,' +
  '"mutator":191.063,"gc":"mc","reduce_memory":false,"reason":"finalize incremental marking via ' +
  'task","start_object_size":75979432,"end_object_size":45819280}';

Deno.test("parseGcTrace sums scavenges and full collections, skipping other lines", () => {
  const text = [
    '{"port":41915}',
    SCAVENGE,
    "some log line",
    SCAVENGE.replace('"pause":8.36', '"pause":1.64'),
    MARK_COMPACT,
    SCAVENGE.slice(0, 120), // cut short as the process exited
  ].join("\n");
  const totals = parseGcTrace(text);
  assert.equal(totals.scavenges, 2);
  assert.equal(totals.fullGcs, 1);
  assert.ok(Math.abs(totals.scavengePauseMs - 10) < 1e-9);
  assert.equal(totals.fullPauseMs, 20.241);
  assert.equal(totals.allocatedBytes, 2 * 24358936);
  assert.equal(totals.promotedBytes, 2 * 2940336);
  assert.equal(totals.survivedBytes, 2 * 3350528);
});

Deno.test("gcPerRequest: bytes and pause µs per request; zero requests give zeros", () => {
  const per = gcPerRequest(parseGcTrace(`${SCAVENGE}\n${MARK_COMPACT}`), 1000);
  assert.equal(per.allocatedBytes, 24358.936);
  assert.equal(per.promotedBytes, 2940.336);
  assert.ok(Math.abs(per.scavengePauseUs - 8.36) < 1e-9);
  assert.ok(Math.abs(per.fullPauseUs - 20.241) < 1e-9);
  assert.deepEqual(gcPerRequest(parseGcTrace(SCAVENGE), 0), {
    allocatedBytes: 0,
    survivedBytes: 0,
    promotedBytes: 0,
    scavengePauseUs: 0,
    fullPauseUs: 0,
  });
});
