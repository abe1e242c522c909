/**
 * Idle keep-alive connections per origin. A connection goes back after a response body has been
 * read to its end on a connection the server keeps open; it is handed out again until its idle
 * time runs out. Idle connections are swept once a second, and only while some exist.
 * @module
 */
import type { Connection, Origin } from "./connection.ts";

/** Pool limits. */
export interface PoolOptions {
  /** Idle connections kept per origin (default 256). */
  maxIdlePerOrigin?: number;
  /** How long an idle connection is kept when the server names no shorter time (default 4 s,
   * under the 5 s keep-alive timeout common in servers, so the server rarely closes first). */
  idleMs?: number;
}

const SWEEP_MS = 1000;

/** An idle connection still open and within its idle time. */
const usable = (connection: Connection, now: number) =>
  !connection.closed && connection.idleUntil > now;

/** The idle connections of one client. */
export class Pool {
  readonly maxIdlePerOrigin: number;
  readonly idleMs: number;
  #idle = new Map<string, Connection[]>();
  #count = 0;
  #sweeper: ReturnType<typeof setInterval> | null = null;

  constructor(options: PoolOptions = {}) {
    this.maxIdlePerOrigin = options.maxIdlePerOrigin ?? 256;
    this.idleMs = options.idleMs ?? 4000;
  }

  /** Idle connections held. */
  get size(): number {
    return this.#count;
  }

  /** The most recently used live idle connection to `origin`, or null. */
  take(origin: Origin): Connection | null {
    const list = this.#idle.get(origin.key);
    const now = Date.now();
    while (list && list.length > 0) {
      const connection = list.pop()!;
      this.#count--;
      if (usable(connection, now)) return connection;
      connection.close();
    }
    return null;
  }

  /** Keeps `connection` for reuse for `keepMs` (the server's keep-alive hint, capped at the
   * pool's idle time), or closes it when the origin's idle list is full. */
  put(connection: Connection, keepMs = this.idleMs): void {
    const list = this.#idle.get(connection.origin.key) ?? [];
    if (connection.closed || list.length >= this.maxIdlePerOrigin || keepMs <= 0) {
      connection.close();
      return;
    }
    connection.idleUntil = Date.now() + Math.min(keepMs, this.idleMs);
    list.push(connection);
    this.#idle.set(connection.origin.key, list);
    this.#count++;
    this.#sweepLater();
  }

  /** Closes every idle connection and stops the sweep. */
  close(): void {
    for (const list of this.#idle.values()) for (const connection of list) connection.close();
    this.#idle.clear();
    this.#count = 0;
    this.#stopSweep();
  }

  #sweepLater(): void {
    if (this.#sweeper !== null) return;
    const sweeper = setInterval(() => this.#sweep(), SWEEP_MS);
    this.#sweeper = sweeper;
    // Idle connections never keep the process alive. (With Node's types in scope the handle is
    // a Timeout object with `unref`; Deno's own is a number.)
    if (typeof sweeper === "number") Deno.unrefTimer(sweeper);
    else (sweeper as { unref?: () => void }).unref?.();
  }

  #stopSweep(): void {
    if (this.#sweeper === null) return;
    clearInterval(this.#sweeper);
    this.#sweeper = null;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [key, list] of this.#idle) {
      const live = list.filter((connection) => {
        if (usable(connection, now)) return true;
        connection.close();
        return false;
      });
      this.#count -= list.length - live.length;
      if (live.length === 0) this.#idle.delete(key);
      else this.#idle.set(key, live);
    }
    if (this.#count === 0) this.#stopSweep();
  }
}
