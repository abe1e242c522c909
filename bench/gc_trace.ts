/**
 * V8's `--trace-gc-nvp` lines, summed: how much a process allocated, how much of it survived a
 * young-generation collection (and was promoted to the old generation), and the main thread's
 * pauses. Deterministic where CPU time per request is not: on a shared box, two runs of one
 * build differ by tens of percent in CPU µs per request but by a few percent in bytes per request.
 *
 * A line is `[pid:isolate:0]   123 ms: GC: {"pause":1.1,"gc":"s",…,"allocated":…}` (JSON since
 * V8 13; a line the process cut short on exit is skipped).
 * @module
 */

/** What the traced collections add up to. */
export interface GcTotals {
  /** Young-generation collections (scavenges) and their main-thread pauses, ms. */
  scavenges: number;
  scavengePauseMs: number;
  /** Full (mark-compact) collections and their final main-thread pauses, ms. */
  fullGcs: number;
  fullPauseMs: number;
  /** Bytes allocated in the young generation since the previous collection, summed. */
  allocatedBytes: number;
  /** Bytes that outlived a scavenge, and the part of them moved to the old generation. */
  survivedBytes: number;
  promotedBytes: number;
}

const ZERO: GcTotals = {
  scavenges: 0,
  scavengePauseMs: 0,
  fullGcs: 0,
  fullPauseMs: 0,
  allocatedBytes: 0,
  survivedBytes: 0,
  promotedBytes: 0,
};

const num = (value: unknown) => typeof value === "number" && Number.isFinite(value) ? value : 0;

/** Sums the `--trace-gc-nvp` lines in `text` (other lines are ignored). */
export function parseGcTrace(text: string): GcTotals {
  const totals = { ...ZERO };
  for (const line of text.split("\n")) {
    const start = line.indexOf("GC: {");
    if (start === -1) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line.slice(start + 4));
    } catch {
      continue;
    }
    if (entry.gc === "s") {
      totals.scavenges++;
      totals.scavengePauseMs += num(entry.pause);
      totals.allocatedBytes += num(entry.allocated);
      totals.survivedBytes += num(entry.new_space_survived);
      totals.promotedBytes += num(entry.promoted);
    } else if (typeof entry.gc === "string") {
      totals.fullGcs++;
      totals.fullPauseMs += num(entry.pause);
    }
  }
  return totals;
}

/** The totals per request: bytes, and pauses in µs. */
export interface GcPerRequest {
  allocatedBytes: number;
  survivedBytes: number;
  promotedBytes: number;
  scavengePauseUs: number;
  fullPauseUs: number;
}

/** `totals` spread over `requests`. */
export function gcPerRequest(totals: GcTotals, requests: number): GcPerRequest {
  const per = (value: number) => requests > 0 ? value / requests : 0;
  return {
    allocatedBytes: per(totals.allocatedBytes),
    survivedBytes: per(totals.survivedBytes),
    promotedBytes: per(totals.promotedBytes),
    scavengePauseUs: per(totals.scavengePauseMs * 1000),
    fullPauseUs: per(totals.fullPauseMs * 1000),
  };
}
