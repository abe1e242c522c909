/**
 * Graceful shutdown of a real `main.ts` process: on SIGTERM it stops taking work, lets streams in
 * flight run to their end for GATEHOUSE_DRAIN_SECONDS, ends the rest with each wire's terminal
 * error, writes every ledger row and exits 0; a second signal ends everything at once.
 */
import assert from "node:assert/strict";
import { type StreamRead, until, words } from "../governance/gov_kit.ts";
import { type DrainRig, type OpenStream, refusesNewWork, startDrainRig } from "./drain_rig.ts";

/** Every stream's ending, with its route's name (a broken connection fails here). */
async function endings(streams: OpenStream[]): Promise<(StreamRead & { name: string })[]> {
  return await Promise.all(streams.map(async ({ route, read }) => {
    const result = await read;
    if ("broken" in result) assert.fail(`${route.name}: the connection broke: ${result.broken}`);
    return { ...result, name: route.name };
  }));
}

/** Polls until a new connection is refused or told 503; fails after 5 s. */
async function untilRefusing(rig: DrainRig): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!await refusesNewWork(rig.gateway.url)) {
    if (Date.now() > deadline) assert.fail("new work was still taken 5 s after SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Each stream ended with its wire's terminal error naming the shutdown. */
function assertShutdownErrors(ends: (StreamRead & { name: string })[]): void {
  for (const end of ends) {
    assert.equal(end.ending, "error", `${end.name}: ended with the terminal error, no clean end`);
    assert.match(end.errorMessage ?? "", /shutting down \(SIGTERM\)/, end.name);
  }
}

Deno.test("SIGTERM: streams in flight finish within the drain, new work is refused, exit 0", async () => {
  // Every stream is held after its first chunk until the signal was handled, then runs ~1 s.
  const rig = await startDrainRig({ delayMs: 40, holdAfterChunks: 1 }, 10);
  try {
    const streams = await rig.open(20, words(20));
    const signalled = performance.now();
    rig.gateway.child.kill("SIGTERM");
    await untilRefusing(rig);
    rig.upstream.release();
    const ends = await endings(streams);
    for (const end of ends) {
      assert.equal(end.ending, "clean", `${end.name}: ${end.errorMessage ?? "no terminal event"}`);
      assert.ok(end.text.includes("alpha"), end.name);
    }
    const { code, ms } = await rig.exited(signalled);
    assert.equal(code, 0, rig.gateway.output());
    assert.ok(ms < 8_000, `exited ${ms} ms after the signal`);
    assert.match(rig.gateway.output(), /gatehouse draining: 20 requests in flight, up to 10 s/);
    const rows = rig.rows();
    assert.equal(rows.length, 20);
    assert.deepEqual(rows.filter((row) => row.outcome !== "ok"), []);
    assert.deepEqual(
      new Set(rows.map((row) => row.route)),
      new Set(["/v1/chat/completions", "/v1/messages", "/v1/responses"]),
    );
  } finally {
    await rig.close();
  }
});

Deno.test("SIGTERM: streams still running after the drain end with their wire's terminal error", async () => {
  const rig = await startDrainRig({ delayMs: 5, holdAfterChunks: 2 }, 1);
  try {
    const streams = await rig.open(12, words(20));
    const signalled = performance.now();
    rig.gateway.child.kill("SIGTERM");
    assertShutdownErrors(await endings(streams));
    const { code, ms } = await rig.exited(signalled);
    assert.equal(code, 0, rig.gateway.output());
    assert.ok(ms >= 900 && ms < 3_000, `exited ${ms} ms after the signal (drain 1 s)`);
    const rows = rig.rows();
    assert.equal(rows.length, 12);
    assert.deepEqual(rows.filter((row) => row.outcome !== "shutdown"), []);
  } finally {
    await rig.close();
  }
});

Deno.test("a second SIGTERM during the drain ends everything at once and writes the rows", async () => {
  const rig = await startDrainRig({ delayMs: 5, holdAfterChunks: 2 }, 30);
  try {
    const streams = await rig.open(12, words(20));
    const signalled = performance.now();
    rig.gateway.child.kill("SIGTERM");
    assert.ok(await until(() => rig.gateway.output().includes("gatehouse draining"), 5_000));
    rig.gateway.child.kill("SIGTERM");
    const { code, ms } = await rig.exited(signalled);
    assert.equal(code, 0, rig.gateway.output());
    assert.ok(ms < 3_000, `exited ${ms} ms after the first signal (drain 30 s)`);
    assertShutdownErrors(await endings(streams));
    const rows = rig.rows();
    assert.equal(rows.length, 12);
    assert.deepEqual(rows.filter((row) => row.outcome !== "shutdown"), []);
  } finally {
    await rig.close();
  }
});
