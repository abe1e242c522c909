/**
 * Where log lines are written. The console sink buffers: a line is appended to memory and the
 * buffer is written to stderr in one asynchronous write a few milliseconds later (or at once
 * when it grew large), so a request's line costs the hot path a string append instead of a
 * synchronous write. One sink per thread carries every line of that thread (the logger's, the
 * request log's, the lifecycle events), so they stay in order.
 *
 * Nothing is lost on a clean exit: the shutdown flushes it (`flush`, from the observers'
 * close), the process's `exit` callbacks write what is left synchronously (`flushSync`), and
 * `Deno.exit` in the main thread runs the `unload` handler that does the same. A hard crash
 * loses at most the last {@link FLUSH_MS} of lines.
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
/** A buffer this large (characters) is written at once. */
export const FLUSH_CHARS = 64 * 1024;

/** What the buffered sink writes to (stderr; tests give their own). */
export interface SinkTarget {
  write(bytes: Uint8Array): Promise<number>;
  writeSync(bytes: Uint8Array): number;
}

const encoder = new TextEncoder();

/** A sink that batches lines and writes them to `target` asynchronously. */
export class BufferedSink implements LogSink {
  readonly #target: SinkTarget;
  #lines: string[] = [];
  #chars = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The write in progress (writes are chained: one at a time, in order). */
  #writing: Promise<void> = Promise.resolve();

  constructor(target: SinkTarget) {
    this.#target = target;
  }

  write(line: string): void {
    this.#lines.push(line);
    this.#chars += line.length + 1;
    if (this.#chars >= FLUSH_CHARS) {
      void this.flush();
    } else if (this.#timer === undefined) {
      const timer = this.#timer = setTimeout(() => void this.flush(), FLUSH_MS);
      // A pending flush never keeps a process alive: its exit writes the rest synchronously.
      Deno.unrefTimer(timer);
    }
  }

  flush(): Promise<void> {
    const bytes = this.#take();
    if (bytes !== null) {
      this.#writing = this.#writing.then(() => writeAll(this.#target, bytes)).catch(() => {
        // stderr is gone (a closed pipe): nothing better to do with a log line.
      });
    }
    return this.#writing;
  }

  flushSync(): void {
    const bytes = this.#take();
    if (bytes === null) return;
    // An asynchronous write still under way may land after these bytes; at an exit the order
    // of the last batch matters less than having it.
    try {
      for (let written = 0, n = 1; written < bytes.length && n > 0; written += n) {
        n = this.#target.writeSync(bytes.subarray(written));
      }
    } catch {
      // stderr is gone.
    }
  }

  /** The queued lines as bytes (and the buffer emptied), or null when there are none. */
  #take(): Uint8Array | null {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#lines.length === 0) return null;
    const text = this.#lines.join("\n") + "\n";
    this.#lines = [];
    this.#chars = 0;
    return encoder.encode(text);
  }
}

async function writeAll(target: SinkTarget, bytes: Uint8Array): Promise<void> {
  for (let written = 0, n = 1; written < bytes.length && n > 0; written += n) {
    n = await target.write(bytes.subarray(written));
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
