/**
 * Gives memory back to the system once a load has fallen away. glibc's malloc keeps the pages it
 * freed for its next allocations, so after a burst the process stays at its peak size: 3,000
 * streams through one gatehouse (bench streams) left it at 337 MB, 176 MB before them, until
 * `malloc_trim(0)` returned the pages (132 MB). The runtime's own heap shrinks by itself; what
 * stays is the native side (the connections' and the HTTP server's buffers). The allocator's
 * settings do not get there: `MALLOC_TRIM_THRESHOLD_` and `MALLOC_ARENA_MAX` changed nothing
 * (they give back only the top of the heap), `MALLOC_MMAP_THRESHOLD_=16384` part of it (511 →
 * 387 MB) at a system call per larger allocation.
 *
 * When: a request ends and the requests still running are a quarter or less of the most that
 * ran at once since the last look; if the load has not come back {@link QUIET_MS} later, the
 * trim runs when malloc holds at least `GATEHOUSE_MEMORY_TRIM_MB` more free bytes than after the
 * last trim (or at start; glibc's `mallinfo2`, which still counts a trimmed chunk as free, so
 * the figure is a change, and it falls as free chunks are used again). A trim took 2.6 ms for
 * 54 MB freed; the look costs a few microseconds. Both are glibc's, called through FFI: they need
 * Linux with glibc 2.33 or newer and `--allow-ffi` (the `start` task grants it); without them
 * the trim is off and the process keeps its pages, as before. While the load stays down it looks
 * again, 4, 8, … up to 60 s apart: the runtime frees what the load left as it collects it.
 * @module
 */
import type { InFlight } from "../gateway/in_flight.ts";
import type { Logger } from "../gateway/exchange.ts";

/** How long the load must stay down before the trim. */
export const QUIET_MS = 2000;

/** The longest wait between looks while the load stays down. */
export const MAX_LOOK_MS = 60_000;

const MIB = 1024 * 1024;

/** The trim and what it gauges, or why there is none. */
export type MallocTrim = { trim: () => void; freeBytes: () => number } | { off: string };

/** `mallinfo2`'s fields are ten `size_t`s; `fordblks`, the free bytes, is the ninth. */
const MALLINFO2 = { struct: Array(10).fill("usize") as "usize"[] };
const FREE_FIELD = 8;

/** glibc's `malloc_trim(0)` (every arena's free pages back to the system) and the free bytes
 * malloc holds (`mallinfo2`, all arenas), or why they are not available here. Never prompts for
 * the permission. */
export function openMallocTrim(): MallocTrim {
  if (Deno.build.os !== "linux") {
    return { off: `malloc_trim is glibc's (this is ${Deno.build.os})` };
  }
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
    return { off: "gatehouse runs without --allow-ffi" };
  }
  try {
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
      mallinfo2: { parameters: [], result: MALLINFO2 },
    });
    return {
      trim: () => void libc.symbols.malloc_trim(0n),
      freeBytes: () => {
        const info = libc.symbols.mallinfo2();
        return Number(new BigUint64Array(info.buffer, info.byteOffset, 10)[FREE_FIELD]);
      },
    };
  } catch (error) {
    // musl (Alpine) has no libc.so.6 and no malloc_trim; glibc before 2.33 no mallinfo2.
    return { off: `glibc not found (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** What {@link trimAfterLoad} watches and calls. */
export interface TrimWatch {
  inflight: Pick<InFlight, "onFall" | "resetPeak" | "fallen">;
  trim: () => void;
  /** The free bytes malloc holds. */
  freeBytes: () => number;
  /** The process's resident set size, bytes (for the report). */
  rss: () => number;
  /** How many more free bytes than after the last trim make another worth it. */
  thresholdBytes: number;
  quietMs?: number;
  /** Told of each trim: the RSS before and after it, and how long it took. */
  trimmed?: (before: number, after: number, ms: number) => void;
}

/** Trims after each fall of the load (see the module); returns the function that stops it. */
export function trimAfterLoad(watch: TrimWatch): () => void {
  const { inflight, thresholdBytes } = watch;
  const quietMs = watch.quietMs ?? QUIET_MS;
  let baseline = watch.freeBytes();
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** When the armed look runs, and how long the next one waits. */
  let due = 0;
  let wait = quietMs;
  let stopped = false;
  const arm = (ms: number) => {
    if (timer !== null) clearTimeout(timer);
    due = Date.now() + ms;
    const armed = setTimeout(look, ms);
    Deno.unrefTimer(armed);
    timer = armed;
  };
  function look() {
    timer = null;
    // The load came back: the next fall looks again.
    if (stopped || !inflight.fallen) return;
    inflight.resetPeak();
    const free = watch.freeBytes();
    if (free < baseline + thresholdBytes) {
      // Free chunks used again lower the mark: what is freed from here on counts.
      baseline = Math.min(baseline, free);
    } else {
      const before = watch.rss();
      const start = performance.now();
      watch.trim();
      const ms = performance.now() - start;
      baseline = watch.freeBytes();
      watch.trimmed?.(before, watch.rss(), ms);
    }
    // What the load left is freed as the runtime collects it, seconds later: while the load
    // stays down, look again, less and less often.
    wait = Math.min(wait * 2, MAX_LOOK_MS);
    arm(wait);
  }
  inflight.onFall(() => {
    if (stopped || (timer !== null && due <= Date.now() + quietMs)) return;
    wait = quietMs;
    arm(quietMs);
  });
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
  };
}

/** Starts the trim for an instance (`thresholdMb` 0: off); returns the function that stops it.
 * Says at start when it is off for want of glibc or the permission. */
export function startMemoryTrim(inflight: InFlight, thresholdMb: number, log: Logger): () => void {
  if (thresholdMb === 0) return () => {};
  const opened = openMallocTrim();
  if ("off" in opened) {
    log.info(`memory trim off: ${opened.off}; freed memory stays with the process`);
    return () => {};
  }
  return trimAfterLoad({
    inflight,
    trim: opened.trim,
    freeBytes: opened.freeBytes,
    rss: () => Deno.memoryUsage().rss,
    thresholdBytes: thresholdMb * MIB,
    trimmed: (before, after, ms) =>
      log.info("memory trimmed after the load fell", {
        rssBeforeMb: Math.round(before / MIB),
        rssAfterMb: Math.round(after / MIB),
        ms: Math.round(ms * 10) / 10,
      }),
  });
}
