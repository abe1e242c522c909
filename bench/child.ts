/**
 * The child side of the benchmark's processes: tell the driver where we listen (one JSON line on
 * stdout), and stop when the driver closes our stdin, so no server outlives a crashed driver.
 * @module
 */

/** What a child reports once it listens. */
export interface Announcement {
  port: number;
  /** The gateway's API key, for the load generator. */
  key?: string;
  /** The gateway's key with every policy set (`policies.ts`). */
  policiedKey?: string;
}

/** Prints the announcement line the driver waits for. */
export function announce(announcement: Announcement): void {
  console.log(JSON.stringify(announcement));
}

/** Runs `stop` once stdin reaches its end (the driver closed it or exited), then exits. Each
 * line the driver sends before that goes to `onLine`. */
export async function exitWithParent(
  stop: () => Promise<void>,
  onLine: (line: string) => Promise<void> = () => Promise.resolve(),
): Promise<never> {
  try {
    const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
    let buffered = "";
    for await (const text of lines) {
      buffered += text;
      for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
        await onLine(buffered.slice(0, end).trim());
        buffered = buffered.slice(end + 1);
      }
    }
  } catch {
    // A broken pipe means the driver is gone, which is the same signal.
  }
  // A graceful stop, but never a hang: idle keep-alive connections must not hold the exit.
  await Promise.race([stop(), new Promise((resolve) => setTimeout(resolve, 1000))]);
  Deno.exit(0);
}
