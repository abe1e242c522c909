/**
 * Gives memory back to the system once a load has fallen away. glibc's malloc keeps the pages it
 * freed for its next allocations, so after a burst the process stays near its peak size: 3,000
 * streams through one gatehouse (bench streams) left it at 325 MB twenty seconds after the last
 * one ended, 158 MB before them. The runtime's own heap shrinks by itself; what stays is the
 * native side (the connections' and the HTTP server's buffers), which only `malloc_trim(0)`
 * releases (177 MB with it). The allocator's settings do not get there: `MALLOC_TRIM_THRESHOLD_`
 * and `MALLOC_ARENA_MAX` changed nothing (they give back only the top of the heap),
 * `MALLOC_MMAP_THRESHOLD_=16384` part of it, at a system call per larger allocation.
 *
 * When: a request ends with a quarter or less of the peak still running. {@link QUIET_MS} later,
 * if the load has not come back above that quarter, the instance trims when its RSS is at least
 * `GATEHOUSE_MEMORY_TRIM_MB` above its lowest since the last trim (a trim took 13–18 ms after
 * 3,000 streams; the look itself reads the RSS only). It looks again 4, 8, … up to 60 s apart
 * for as long as the load stays down, since the runtime frees what a load left as it collects
 * it, seconds later; a load that comes back ends the series, and its fall starts a new one.
 *
 * One trimmer per process, on worker 0: the trim takes every malloc arena's lock, so one thread
 * trimming for all is enough, and a worker trimming on its own fall would stall the others. With
 * `--workers N` the kernel spreads connections evenly, so worker 0's load stands for the
 * process's. The trim is glibc's, called through FFI: it needs Linux with glibc and `--allow-ffi`
 * (the `start` task grants it); without them it is off and the process keeps its pages.
 * @module
 */
import type { InFlight } from "../gateway/in_flight.ts";
import type { Logger } from "../gateway/exchange.ts";

/** How long after a fall the first look comes (the load must not have come back by then). */
export const QUIET_MS = 2000;

/** The longest wait between looks while the load stays down. */
export const MAX_LOOK_MS = 60_000;

const MIB = 1024 * 1024;

/** The trim, or why there is none. */
export type MallocTrim = { trim: () => void } | { off: string };

/** glibc's `malloc_trim(0)` (every arena's free pages back to the system), or why it is not
 * available here. Never prompts for the permission. */
export function openMallocTrim(): MallocTrim {
  if (Deno.build.os !== "linux") {
    return { off: `malloc_trim is glibc's (this is ${Deno.build.os})` };
  }
  // Deno cannot grant FFI for one library by name (`--allow-ffi=libc.so.6` is taken as a path
  // under the working directory): only the whole permission serves.
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
    return { off: "the ffi permission is not granted (--allow-ffi)" };
  }
  try {
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
    });
    return { trim: () => void libc.symbols.malloc_trim(0n) };
  } catch (error) {
    // musl (Alpine) has no libc.so.6 and no malloc_trim.
    return { off: `glibc not found (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** What {@link trimAfterLoad} watches and calls. */
export interface TrimWatch {
  inflight: Pick<InFlight, "onFall" | "resetPeak" | "peak" | "size">;
  trim: () => void;
  /** The process's resident set size, bytes. */
  rss: () => number;
  /** How far the RSS must be above its lowest since the last trim for another. */
  thresholdBytes: number;
  quietMs?: number;
  /** Told of each trim: the RSS before and after it, and how long it took. */
  trimmed?: (before: number, after: number, ms: number) => void;
}

/** Trims after each fall of the load (see the module); returns the function that stops it. */
export function trimAfterLoad(watch: TrimWatch): () => void {
  const { inflight, thresholdBytes } = watch;
  const quietMs = watch.quietMs ?? QUIET_MS;
  /** The lowest RSS since the last trim (or the start). */
  let mark = watch.rss();
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** The peak the series of looks under way started from (0: none under way). */
  let peak = 0;
  let wait = quietMs;
  let stopped = false;
  const arm = (ms: number) => {
    const armed = setTimeout(look, ms);
    Deno.unrefTimer(armed);
    timer = armed;
  };
  function look() {
    timer = null;
    if (stopped) return;
    if (inflight.size * 4 > peak) {
      // The load came back: the series ends, and its next fall starts another.
      peak = 0;
      inflight.resetPeak();
      return;
    }
    const before = watch.rss();
    if (before - mark >= thresholdBytes) {
      const start = performance.now();
      watch.trim();
      const ms = performance.now() - start;
      mark = watch.rss();
      watch.trimmed?.(before, mark, ms);
    } else mark = Math.min(mark, before);
    wait = Math.min(wait * 2, MAX_LOOK_MS);
    arm(wait);
  }
  inflight.onFall(() => {
    // A series under way goes on; a higher peak since it started restarts it (a new load).
    if (stopped || (timer !== null && inflight.peak <= peak)) return;
    if (timer !== null) clearTimeout(timer);
    peak = inflight.peak;
    wait = quietMs;
    arm(quietMs);
  });
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
  };
}

/** Starts the trim for the process on worker 0 (`thresholdMb` 0: off); returns the function that
 * stops it. Says at start when it is off for want of glibc or the permission. */
export function startMemoryTrim(
  inflight: InFlight,
  thresholdMb: number,
  log: Logger,
  worker = 0,
): () => void {
  if (thresholdMb === 0 || worker !== 0) return () => {};
  const opened = openMallocTrim();
  if ("off" in opened) {
    log.info(`memory trim off: ${opened.off}; freed memory stays with the process`);
    return () => {};
  }
  return trimAfterLoad({
    inflight,
    trim: opened.trim,
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
