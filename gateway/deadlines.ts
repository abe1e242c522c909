/**
 * Coarse deadlines for upstream calls: one shared interval instead of a timer per request (a
 * per-request timer showed up in profiles). Precision is a tenth of a second, plenty for
 * timeouts measured in minutes; the interval runs only while a deadline is pending.
 * @module
 */

const TICK_MS = 100;
const pending = new Map<number, { at: number; fire: () => void }>();
let nextId = 0;
let interval: ReturnType<typeof setInterval> | null = null;

function tick(): void {
  const now = Date.now();
  for (const [id, deadline] of pending) {
    if (deadline.at > now) continue;
    pending.delete(id);
    deadline.fire();
  }
  if (pending.size === 0 && interval !== null) {
    clearInterval(interval);
    interval = null;
  }
}

/** Calls `fire` after about `ms`; returns the function that cancels it. */
export function deadline(ms: number, fire: () => void): () => void {
  const id = nextId++;
  pending.set(id, { at: Date.now() + ms, fire });
  interval ??= setInterval(tick, TICK_MS);
  return () => {
    pending.delete(id);
    if (pending.size === 0 && interval !== null) {
      clearInterval(interval);
      interval = null;
    }
  };
}
