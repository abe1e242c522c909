import assert from "node:assert/strict";
import { InFlight } from "../gateway/in_flight.ts";
import { memoryLogger } from "../gateway/log.ts";
import { startMemoryTrim, trimAfterLoad } from "./memory_trim.ts";

const MIB = 1024 * 1024;
const QUIET_MS = 20;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const entry = () => ({ shutDown() {}, settleNow() {} });

/** `n` requests registered with `inflight`: the functions that end them. */
const run = (inflight: InFlight, n: number) =>
  Array.from({ length: n }, () => inflight.track(entry()));

/** A trim watch over fake memory: `free` is what malloc holds free (a trim leaves it, as glibc
 * does), `rss` the resident size, which a trim sets to `trimTo`. */
function rig(startFree: number, trimTo: number) {
  const inflight = new InFlight();
  const memory = { free: startFree, rss: 500 * MIB, trims: 0, told: [] as number[][] };
  const stop = trimAfterLoad({
    inflight,
    freeBytes: () => memory.free,
    rss: () => memory.rss,
    trim: () => {
      memory.trims++;
      memory.rss = trimTo;
    },
    thresholdBytes: 64 * MIB,
    quietMs: QUIET_MS,
    trimmed: (before, after) => memory.told.push([before / MIB, after / MIB]),
  });
  return { inflight, memory, stop };
}

Deno.test("memory trim: runs once the load fell to a quarter and stayed down, memory freed", async () => {
  const { inflight, memory, stop } = rig(10 * MIB, 90 * MIB);
  try {
    const ends = run(inflight, 8);
    memory.free = 300 * MIB;
    for (const end of ends.slice(0, 5)) end();
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 0, "3 of 8 still running is not a fall");
    ends[5]!();
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 1);
    assert.deepEqual(memory.told, [[500, 90]]);
    // The peak starts again from the 2 left: their end is a fall, but malloc holds no more free
    // bytes than after the trim (it still counts the trimmed ones).
    ends[6]!();
    ends[7]!();
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 1);
    memory.free = 364 * MIB;
    for (const end of run(inflight, 4)) end();
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 2, "64 MiB more freed since the trim");
  } finally {
    stop();
  }
});

Deno.test("memory trim: a load that comes back before the quiet time is not trimmed", async () => {
  const { inflight, memory, stop } = rig(10 * MIB, 90 * MIB);
  try {
    const ends = run(inflight, 8);
    memory.free = 300 * MIB;
    for (const end of ends.slice(0, 7)) end();
    const again = run(inflight, 8);
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 0);
    for (const end of [...again, ends[7]!]) end();
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 1);
  } finally {
    stop();
  }
});

Deno.test("memory trim: less than the threshold freed is left; reuse lowers the mark", async () => {
  const { inflight, memory, stop } = rig(100 * MIB, 90 * MIB);
  try {
    memory.free = 163 * MIB;
    for (const end of run(inflight, 4)) end();
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 0, "63 MiB more than at start is under the 64 MiB threshold");
    memory.free = 20 * MIB;
    for (const end of run(inflight, 4)) end();
    await wait(QUIET_MS * 3);
    memory.free = 84 * MIB;
    for (const end of run(inflight, 4)) end();
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 1, "64 MiB freed since the free chunks were used again");
  } finally {
    stop();
  }
});

Deno.test("memory trim: while the load stays down it looks again, later each time", async () => {
  const { inflight, memory, stop } = rig(10 * MIB, 90 * MIB);
  try {
    for (const end of run(inflight, 4)) end();
    await wait(QUIET_MS * 1.5);
    assert.equal(memory.trims, 0, "nothing freed at the first look");
    // The runtime frees what the load left later, with no request coming or going.
    memory.free = 300 * MIB;
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 1, "the second look, 2 quiet times after the first");
    // A load that comes back stops the looks until it falls again.
    const ends = run(inflight, 1);
    memory.free = 600 * MIB;
    await wait(QUIET_MS * 10);
    assert.equal(memory.trims, 1);
    ends[0]!();
    await wait(QUIET_MS * 2);
    assert.equal(memory.trims, 2);
  } finally {
    stop();
  }
});

Deno.test("memory trim: stopping cancels the look under way", async () => {
  const { inflight, memory, stop } = rig(10 * MIB, 90 * MIB);
  memory.free = 300 * MIB;
  for (const end of run(inflight, 4)) end();
  stop();
  await wait(QUIET_MS * 3);
  assert.equal(memory.trims, 0);
});

/** What `openMallocTrim` answers, and what `startMemoryTrim` logs, in a process run with
 * `permissions` (the test's own may grant FFI or not). */
async function inChild(
  permissions: string[],
): Promise<{ off?: string; free: number; lines: string[] }> {
  const module = (name: string) => JSON.stringify(new URL(name, import.meta.url).href);
  const script = `const { openMallocTrim, startMemoryTrim } = await import(${
    module("./memory_trim.ts")
  });
const { InFlight } = await import(${module("../gateway/in_flight.ts")});
const { memoryLogger } = await import(${module("../gateway/log.ts")});
const opened = openMallocTrim();
const free = "trim" in opened ? opened.freeBytes() : -1;
if ("trim" in opened) opened.trim();
const log = memoryLogger();
startMemoryTrim(new InFlight(), 64, log)();
console.log(JSON.stringify({ off: opened.off, free, lines: log.lines.map((l) => l.message) }));`;
  // `deno eval` would grant every permission: the script runs from a file.
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, script);
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--config",
        new URL("../deno.json", import.meta.url).pathname,
        ...permissions,
        file,
      ],
    }).output();
    const text = new TextDecoder();
    assert.equal(code, 0, text.decode(stderr));
    return JSON.parse(text.decode(stdout));
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("memory trim: off without --allow-ffi, and says so at start", async () => {
  const { off, lines } = await inChild(["--allow-read"]);
  assert.match(off ?? "", Deno.build.os === "linux" ? /without --allow-ffi/ : /glibc/);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^memory trim off: .*freed memory stays with the process/);
});

Deno.test("memory trim: GATEHOUSE_MEMORY_TRIM_MB=0 turns it off without a word", () => {
  const log = memoryLogger();
  startMemoryTrim(new InFlight(), 0, log)();
  assert.deepEqual(log.lines, []);
});

Deno.test({
  name: "memory trim: with --allow-ffi on Linux, glibc's malloc_trim runs",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const { off, free, lines } = await inChild(["--allow-read", "--allow-ffi"]);
    assert.equal(off, undefined);
    assert.ok(free > 0 && free < 2 ** 40, `free bytes read from mallinfo2: ${free}`);
    assert.deepEqual(lines, [], "a trim that is on says nothing until it trims");
  },
});
