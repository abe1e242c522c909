/**
 * Where log lines are written. The console sink buffers: a line is appended to memory and the
 * buffer is written to stderr in one write a few milliseconds later (or at once when it grew
 * large), so a request's line costs the hot path a string append instead of a write of its own.
 * One sink per thread carries every line of that thread (the logger's, the request log's, the
 * lifecycle events), so they stay in order.
 *
 * The batch is written synchronously, as `console.error` writes: an asynchronous write could
 * still be under way when an exit writes the rest (lines interleaved or lost), and a stalled
 * stderr would let queued batches grow without bound; a synchronous one makes a slow log reader
 * slow the gateway down instead, as it always did. (Measured with wrk, `deno task bench
 * --only=observe`: no difference in throughput or latency against an asynchronous write.)
 * Nothing is lost on a clean exit: the shutdown flushes it, and `Deno.exit` in the main thread
 * runs the `unload` handler that does the same. A hard crash loses at most the last
 * {@link FLUSH_MS} of lines.
 * @module
 */

/** Where formatted lines go. */
export interface LogSink {
  /** Queues one line (without its newline). */
  write(line: string): void;
  /** Resolves once every line queued so far is written. */
  flush(): Promise<void>;
  /** Writes every queued line now, synchronously (right before an exit). */
  flushSync(): void;
}

/** How long a line may wait in the buffer, ms. */
export const FLUSH_MS = 5;
/** The buffer's size, bytes: a batch is written when the next line does not fit, and a longer
 * line is written on its own. */
export const FLUSH_BYTES = 64 * 1024;

/** What the buffered sink writes to (stderr; tests give their own). */
export interface SinkTarget {
  writeSync(bytes: Uint8Array): number;
}

const encoder = new TextEncoder();

/** A sink that batches lines and writes each batch to `target` in one go. Lines are encoded
 * straight into one buffer kept for the sink's life: joining a batch's lines and encoding the
 * joined text was three copies of every line, about 1.1 KB of garbage a request with JSON
 * request lines (`deno task bench --allocations=chat-json --target=policied`). */
export class BufferedSink implements LogSink {
  readonly #target: SinkTarget;
  readonly #buffer = new Uint8Array(FLUSH_BYTES);
  #used = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(target: SinkTarget) {
    this.#target = target;
  }

  /** Queues `line`; the batch goes out within {@link FLUSH_MS}, or now when the buffer is full. */
  write(line: string): void {
    if (!this.#append(line)) {
      this.flushSync();
      // Longer than the whole buffer: written at once, after the lines before it.
      if (!this.#append(line)) this.#writeAll(encoder.encode(`${line}\n`));
    }
    if (this.#used > 0 && this.#timer === undefined) {
      const timer = this.#timer = setTimeout(() => this.flushSync(), FLUSH_MS);
      // A pending flush never keeps a process alive: its exit writes the rest.
      Deno.unrefTimer(timer);
    }
  }

  /** Encodes `line` and its newline behind the queued bytes; false (nothing queued) when they
   * do not fit. */
  #append(line: string): boolean {
    const room = this.#buffer.subarray(this.#used);
    const { read, written } = encoder.encodeInto(line, room);
    if (read < line.length || written >= room.length) return false;
    room[written] = 10;
    this.#used += written + 1;
    return true;
  }

  /** Writes what is queued; resolved once it is written. */
  flush(): Promise<void> {
    this.flushSync();
    return Promise.resolve();
  }

  /** Writes what is queued, now. */
  flushSync(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#used === 0) return;
    const used = this.#used;
    this.#used = 0;
    this.#writeAll(this.#buffer.subarray(0, used));
  }

  /** Writes all of `bytes` (a partial write is continued); a target that fails loses them. */
  #writeAll(bytes: Uint8Array): void {
    try {
      for (let written = 0, n = 1; written < bytes.length && n > 0; written += n) {
        n = this.#target.writeSync(bytes.subarray(written));
      }
    } catch {
      // stderr is gone (a closed pipe): nothing better to do with a log line.
    }
  }
}

let stderr: BufferedSink | null = null;

/** This thread's stderr sink (one per thread, made on first use; the main thread's is flushed
 * by `unload`, which `Deno.exit` runs). */
export function stderrSink(): LogSink {
  if (stderr === null) {
    const sink = stderr = new BufferedSink(Deno.stderr);
    globalThis.addEventListener("unload", () => sink.flushSync());
  }
  return stderr;
}

/** A sink keeping lines in memory, for tests. */
export function memorySink(): LogSink & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    write: (line) => void lines.push(line),
    flush: () => Promise.resolve(),
    flushSync: () => {},
  };
}
