/**
 * Coarse deadlines for upstream calls: one shared interval instead of a timer per request.
 * Precision is a tenth of a second, plenty for timeouts measured in minutes.
 *
 * A server keeps the interval running for its whole life (`keepDeadlineTimer`): creating and
 * clearing a timer around every upstream call measurably slowed each call. Without that call
 * (tests, embedders) the interval runs only while a deadline is pending.
 * @module
 */

const TICK_MS = 100;
const pending = new Map<number, { at: number; fire: () => void }>();
let nextId = 0;
let interval: ReturnType<typeof setInterval> | null = null;
let keep = false;

function stopIfIdle(): void {
  if (keep || pending.size > 0 || interval === null) return;
  clearInterval(interval);
  interval = null;
}

function tick(): void {
  const now = Date.now();
  for (const [id, deadline] of pending) {
    if (deadline.at > now) continue;
    pending.delete(id);
    deadline.fire();
  }
  stopIfIdle();
}

function ensureInterval(): void {
  if (interval !== null) return;
  interval = setInterval(tick, TICK_MS);
  // The timer never keeps the process alive by itself. (With Node's types in scope the handle
  // is a Timeout object with `unref`; Deno's own is a number.)
  if (typeof interval === "number") Deno.unrefTimer(interval);
  else (interval as { unref?: () => void }).unref?.();
}

/** Keeps the shared interval running for the life of the process (servers). */
export function keepDeadlineTimer(): void {
  keep = true;
  ensureInterval();
}

/** Calls `fire` after about `ms`; returns the function that cancels it. */
export function deadline(ms: number, fire: () => void): () => void {
  const id = nextId++;
  pending.set(id, { at: Date.now() + ms, fire });
  ensureInterval();
  return () => {
    pending.delete(id);
    stopIfIdle();
  };
}
