import assert from "node:assert/strict";
import type { ChunkReader } from "../core/chunk_reader.ts";
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
