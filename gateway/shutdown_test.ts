import assert from "node:assert/strict";
import type { GatewayError } from "../core/errors.ts";
import { InFlight } from "./in_flight.ts";
import { gracefulShutdown, type Listener, type ShutdownParts } from "./shutdown.ts";

/** A listener that finishes once `open` responses are done (`respond` ends one). */
function listener(open = 0) {
  let stopped = false;
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const check = () => {
    if (stopped && open === 0) finish();
  };
  const server: Listener & { stopped: () => boolean; respond(): void } = {
    shutdown() {
      stopped = true;
      check();
      return finished;
    },
    finished,
    stopped: () => stopped,
    respond() {
      open--;
      check();
    },
  };
  return server;
}

/** A request that settles (untracks) `settleAfterMs` after it was ended, and its response with
 * it; `finishesAfterMs` ends it on its own. */
function request(
  inflight: InFlight,
  server: ReturnType<typeof listener>,
  options: { finishesAfterMs?: number; settleAfterMs?: number } = {},
) {
  const ended: GatewayError[] = [];
  let over = false;
  let forced = 0;
  const settle = () => {
    if (over) return;
    over = true;
    untrack();
    server.respond();
  };
  const untrack = inflight.track({
    shutDown(error) {
      ended.push(error);
      setTimeout(settle, options.settleAfterMs ?? 0);
    },
    settleNow: () => {
      forced++;
      settle();
    },
  });
  const timer = options.finishesAfterMs === undefined
    ? undefined
    : setTimeout(settle, options.finishesAfterMs);
  return { ended, clear: () => clearTimeout(timer), forced: () => forced };
}

function parts(inflight: InFlight, servers: Listener[], drainMs: number) {
  const events: string[] = [];
  const exited = Promise.withResolvers<number>();
  const shutdownParts: ShutdownParts = {
    inflight,
    drainMs,
    listeners: servers,
    close: () => {
      events.push(`close with ${inflight.size} in flight`);
      return Promise.resolve();
    },
    log: (line) => events.push(line),
    exit: (code) => exited.resolve(code),
    settleMs: { afterDrain: 300, afterSecondSignal: 100 },
  };
  return { events, exited: exited.promise, shutdownParts };
}

Deno.test("a signal with nothing in flight stops the listeners, closes and exits 0", async () => {
  const inflight = new InFlight();
  const servers = [listener(), listener()];
  const { events, exited, shutdownParts } = parts(inflight, servers, 30_000);
  const shutdown = gracefulShutdown(shutdownParts);
  const started = performance.now();
  shutdown.signal("SIGTERM");
  assert.equal(inflight.draining, true, "draining at once: /readyz turns 503");
  assert.equal(await exited, 0);
  await shutdown.done;
  assert.ok(performance.now() - started < 1_000);
  assert.ok(servers.every((server) => server.stopped()));
  assert.deepEqual(events, [
    "gatehouse draining: 0 requests in flight, up to 30 s",
    "close with 0 in flight",
    "gatehouse stopped (exit 0)",
  ]);
});

Deno.test("requests that end within the grace period are not cut; close waits for them", async () => {
  const inflight = new InFlight();
  const server = listener(2);
  const a = request(inflight, server, { finishesAfterMs: 30 });
  const b = request(inflight, server, { finishesAfterMs: 60 });
  const { events, exited, shutdownParts } = parts(inflight, [server], 10_000);
  const started = performance.now();
  gracefulShutdown(shutdownParts).signal("SIGINT");
  assert.equal(await exited, 0);
  assert.ok(performance.now() - started < 1_000);
  assert.deepEqual([a.ended, b.ended], [[], []]);
  assert.deepEqual(events, [
    "gatehouse draining: 2 requests in flight, up to 10 s",
    "close with 0 in flight",
    "gatehouse stopped (exit 0)",
  ]);
});

Deno.test("what still runs after the grace period is ended with the shutdown error", async () => {
  const inflight = new InFlight();
  const server = listener(2);
  const quick = request(inflight, server, { finishesAfterMs: 10 });
  const slow = request(inflight, server, { finishesAfterMs: 60_000, settleAfterMs: 20 });
  const { events, exited, shutdownParts } = parts(inflight, [server], 100);
  const started = performance.now();
  gracefulShutdown(shutdownParts).signal("SIGTERM");
  assert.equal(await exited, 0);
  slow.clear();
  const took = performance.now() - started;
  assert.ok(took >= 100 && took < 1_000, `${took} ms`);
  assert.deepEqual(quick.ended, []);
  assert.equal(slow.ended.length, 1);
  assert.match(slow.ended[0]!.message, /shutting down \(SIGTERM\)/);
  assert.deepEqual(events, [
    "gatehouse draining: 2 requests in flight, up to 0.1 s",
    "gatehouse: ended 1 request still running",
    "close with 0 in flight",
    "gatehouse stopped (exit 0)",
  ]);
});

Deno.test("a second signal ends everything at once and exits", async () => {
  const inflight = new InFlight();
  const server = listener(1);
  const long = request(inflight, server, { finishesAfterMs: 60_000 });
  const { events, exited, shutdownParts } = parts(inflight, [server], 30_000);
  const shutdown = gracefulShutdown(shutdownParts);
  const started = performance.now();
  shutdown.signal("SIGTERM");
  setTimeout(() => shutdown.signal("SIGTERM"), 20);
  assert.equal(await exited, 0);
  long.clear();
  assert.ok(performance.now() - started < 1_000);
  assert.equal(long.ended.length, 1);
  assert.deepEqual(events, [
    "gatehouse draining: 1 request in flight, up to 30 s",
    "gatehouse: SIGTERM again: ended 1 request at once",
    "close with 0 in flight",
    "gatehouse stopped (exit 0)",
  ]);
});

Deno.test("a response that never finishes holds the exit only for the settle wait", async () => {
  const inflight = new InFlight();
  const stuck = listener(1);
  const { events, exited, shutdownParts } = parts(inflight, [stuck], 50);
  const started = performance.now();
  gracefulShutdown(shutdownParts).signal("SIGTERM");
  assert.equal(await exited, 0);
  const took = performance.now() - started;
  assert.ok(took >= 250 && took < 1_500, `${took} ms`);
  assert.deepEqual(events.slice(1), [
    "gatehouse: responses still open after the drain; closing anyway",
    "close with 0 in flight",
    "gatehouse stopped (exit 0)",
  ]);
});

Deno.test("a request whose response never finishes is recorded before the store closes", async () => {
  const inflight = new InFlight();
  const stuck = listener(1);
  const never = request(inflight, stuck, { settleAfterMs: 1_000 });
  const { events, exited, shutdownParts } = parts(inflight, [stuck], 50);
  gracefulShutdown(shutdownParts).signal("SIGTERM");
  assert.equal(await exited, 0);
  assert.equal(never.forced(), 1, "settled by the shutdown itself");
  assert.ok(events.includes("gatehouse: 1 response still open; recorded as ended"), `${events}`);
  assert.equal(events.at(-2), "close with 0 in flight");
  // Its own late settle (a no-op now) runs out before the test ends.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
});

Deno.test("a close that fails is logged and exits 1", async () => {
  const inflight = new InFlight();
  const { events, exited, shutdownParts } = parts(inflight, [listener()], 1_000);
  shutdownParts.close = () => Promise.reject(new Error("disk full"));
  gracefulShutdown(shutdownParts).signal("SIGTERM");
  assert.equal(await exited, 1);
  assert.deepEqual(events.slice(-2), [
    "gatehouse: closing failed: disk full",
    "gatehouse stopped (exit 1)",
  ]);
});

Deno.test("each step names its event for a JSON line: drain, requests ended, exit", async () => {
  const inflight = new InFlight();
  const server = listener(1);
  const slow = request(inflight, server, { finishesAfterMs: 60_000, settleAfterMs: 20 });
  const { exited, shutdownParts } = parts(inflight, [server], 50);
  const named: Array<{ event: string; fields?: Record<string, unknown> }> = [];
  shutdownParts.log = (_line, event) => {
    if (event !== undefined) named.push({ event: event.event, fields: event.fields });
  };
  gracefulShutdown(shutdownParts).signal("SIGTERM");
  assert.equal(await exited, 0);
  slow.clear();
  assert.deepEqual(named, [
    { event: "drain", fields: { signal: "SIGTERM", inFlight: 1, drainSeconds: 0.05 } },
    { event: "drain_ended", fields: { requests: 1 } },
    { event: "exit", fields: { code: 0 } },
  ]);
});
