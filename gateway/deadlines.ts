/**
 * Coarse deadlines for upstream calls: one shared interval instead of a timer per request.
 * Precision is a tenth of a second, plenty for timeouts measured in minutes.
 *
 * A server keeps the interval running for its whole life (`keepDeadlineTimer`): creating and
 * clearing a timer around every upstream call measurably slowed each call. Without that call
 * (tests, embedders) the interval runs only while a deadline is pending.
 * @module
 */

import { Slots } from "../core/slots.ts";
import { VERDICT_GRACE_MS } from "../core/verdict_grace.ts";

const TICK_MS = 100;

interface Deadline {
  at: number;
  fire: () => void;
}

/** Pending deadlines; a finished one's slot is cleared and reused. Not a Map with an id per
 * call: under load, set-then-delete on a Map grew the old generation by about 1.8 KiB more per
 * request than these slots do (`core/slots.ts` says why). */
const slots = new Slots<Deadline>();
let interval: ReturnType<typeof setInterval> | null = null;
let keep = false;

function stopIfIdle(): void {
  if (keep || slots.size > 0 || interval === null) return;
  clearInterval(interval);
  interval = null;
}

/** Whether a deadline in a slot is due at `now`. */
function anyDue(now: number): boolean {
  for (let slot = 0; slot < slots.capacity; slot++) {
    const deadline = slots.at(slot);
    if (deadline !== undefined && deadline.at <= now) return true;
  }
  return false;
}

/** Fires the deadlines due at `now` that are still pending. */
function fireDue(now: number): void {
  for (let slot = 0; slot < slots.capacity; slot++) {
    const deadline = slots.at(slot);
    if (deadline === undefined || deadline.at > now) continue;
    slots.remove(slot, deadline);
    deadline.fire();
  }
  stopIfIdle();
}

// Due deadlines fire a turn of the event loop after the tick that finds them (a timer of its
// own: core/verdict_grace.ts). When the loop was held past a deadline (a long synchronous
// stretch: a large body parsed, a full GC, a burst of other requests' work), what arrived
// meanwhile (response headers, a stream's next chunk) is only seen in a later turn than the
// overdue tick, and its caller then cancels the deadline. Fired in the tick, it blamed the
// upstream (a 504, a stream cut for silence) for an answer that was already in.
function tick(): void {
  const now = Date.now();
  if (anyDue(now)) setTimeout(() => fireDue(now), VERDICT_GRACE_MS);
  else stopIfIdle();
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
  const entry: Deadline = { at: Date.now() + ms, fire };
  const slot = slots.add(entry);
  ensureInterval();
  return () => {
    // A fired deadline's slot may already hold another one.
    if (slots.remove(slot, entry)) stopIfIdle();
  };
}
