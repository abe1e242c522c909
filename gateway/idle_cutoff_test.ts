import assert from "node:assert/strict";
import type { ChunkReader } from "../core/chunk_reader.ts";
import type { HookableReader, ReadHooks } from "../http1/body_stream.ts";
import { idleCutoff } from "./idle_cutoff.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A source that answers each read after `gaps[i]` ms, then ends; a cancel ends the read under
 * way and is recorded. */
function paced(gaps: number[]) {
  let i = 0;
  const state = { cancelled: null as unknown };
  let wake = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reader: ChunkReader<number> = {
    async read() {
      if (i >= gaps.length || state.cancelled !== null) return null;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, gaps[i]!);
      });
      return state.cancelled !== null ? null : i++;
    },
    cancel(reason) {
      state.cancelled = reason;
      clearTimeout(timer);
      wake();
      return Promise.resolve();
    },
  };
  return { reader, state };
}

async function drain(reader: ChunkReader<number>): Promise<number[]> {
  const chunks: number[] = [];
  for (let chunk = await reader.read(); chunk !== null; chunk = await reader.read()) {
    chunks.push(chunk);
  }
  return chunks;
}

Deno.test("idleCutoff: chunks closer than the limit keep a stream alive well past it", async () => {
  const { reader, state } = paced([150, 150, 150, 150]);
  let idle = 0;
  const chunks = await drain(idleCutoff(reader, 400, () => idle++));
  assert.deepEqual(chunks, [0, 1, 2, 3]);
  assert.equal(idle, 0);
  assert.equal(state.cancelled, null);
  await sleep(550); // the deadline was disarmed at the end: it never fires
  assert.equal(idle, 0);
});

Deno.test("idleCutoff: silence past the limit ends the body, tells onIdle once, cancels the source", async () => {
  const { reader, state } = paced([10, 5_000]);
  let idle = 0;
  const started = Date.now();
  const chunks = await drain(idleCutoff(reader, 300, () => idle++));
  assert.deepEqual(chunks, [0]);
  assert.equal(idle, 1);
  assert.ok(Date.now() - started < 1_000, "ended by the cutoff, not the source");
  assert.ok(state.cancelled instanceof Error);
});

Deno.test("idleCutoff: a consumer's cancel disarms it and reaches the source", async () => {
  const { reader, state } = paced([10, 10]);
  let idle = 0;
  const cut = idleCutoff(reader, 200, () => idle++);
  await cut.read();
  await cut.cancel("client left");
  assert.equal(state.cancelled, "client left");
  await sleep(350);
  assert.equal(idle, 0);
});

/** `paced` as the HTTP/1.1 client's body reader works: hooks installed by the wrapper see each
 * read's chunk or failure; the read after `breakAt` chunks fails. */
function hookedPaced(gaps: number[], breakAt = Infinity) {
  const { reader: inner, state } = paced(gaps);
  let hooks: ReadHooks<number> | null = null;
  let read = 0;
  const reader: HookableReader<number> = {
    read: () =>
      (read++ >= breakAt ? Promise.reject(new Error("connection reset")) : inner.read()).then(
        (chunk) => hooks === null ? chunk : hooks.chunk(chunk),
        (error) => {
          if (hooks === null) throw error;
          return hooks.error(error);
        },
      ),
    cancel: (reason) => inner.cancel(reason),
    hook: (watch) => void (hooks = watch),
  };
  return { reader, state };
}

Deno.test("idleCutoff over a hooked reader: chunks pass, silence cuts, a break ends it", async () => {
  const alive = hookedPaced([50, 50, 50]);
  let idle = 0;
  assert.deepEqual(await drain(idleCutoff(alive.reader, 300, () => idle++)), [0, 1, 2]);
  assert.equal(idle, 0);

  const silent = hookedPaced([10, 5_000]);
  const started = Date.now();
  assert.deepEqual(await drain(idleCutoff(silent.reader, 200, () => idle++)), [0]);
  assert.equal(idle, 1);
  assert.ok(Date.now() - started < 1_000, "ended by the cutoff, not the source");
  assert.ok(silent.state.cancelled instanceof Error);

  const broken = hookedPaced([10, 10, 10], 1);
  const breaks: unknown[] = [];
  const cut = idleCutoff(broken.reader, 300, () => idle++, (error) => breaks.push(error));
  assert.deepEqual(await drain(cut), [0]);
  assert.equal(breaks.length, 1);
  assert.equal(idle, 1);
  assert.equal(await cut.read(), null);
  await sleep(350); // disarmed at the break: the deadline never fires
  assert.equal(idle, 1);
});
