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

/** A trim watch over fake memory: `rss` is what the next reading gives, and a trim sets it to
 * `trimTo`; `reads` are the times of the readings. */
function rig(startRss: number, trimTo: number) {
  const inflight = new InFlight();
  const memory = { rss: startRss, trims: 0, reads: [] as number[], told: [] as number[][] };
  const stop = trimAfterLoad({
    inflight,
    rss: () => {
      memory.reads.push(performance.now());
      return memory.rss;
    },
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

Deno.test("memory trim: runs once the load fell to a quarter and stayed down, RSS grown", async () => {
  const { inflight, memory, stop } = rig(100 * MIB, 90 * MIB);
  try {
    const ends = run(inflight, 8);
    memory.rss = 400 * MIB;
    for (const end of ends.slice(0, 5)) end();
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 0, "3 of 8 still running is not a fall");
    ends[5]!();
    await wait(QUIET_MS * 1.5);
    assert.equal(memory.trims, 1);
    assert.deepEqual(memory.told, [[400, 90]]);
    for (const end of ends.slice(6)) end();
    // A second burst as large: the first look after it sees the load back and ends the series;
    // its fall starts another, which trims what the burst grew.
    const again = run(inflight, 8);
    memory.rss = 300 * MIB;
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 1, "not while the burst runs");
    for (const end of again) end();
    await wait(QUIET_MS * 2);
    assert.equal(memory.trims, 2);
    assert.deepEqual(memory.told[1], [300, 90]);
  } finally {
    stop();
  }
});

Deno.test("memory trim: a load that comes back before the quiet time is not trimmed", async () => {
  const { inflight, memory, stop } = rig(100 * MIB, 90 * MIB);
  try {
    const ends = run(inflight, 8);
    memory.rss = 400 * MIB;
    for (const end of ends.slice(0, 7)) end();
    const again = run(inflight, 8);
    await wait(QUIET_MS * 3);
    assert.equal(memory.trims, 0);
    for (const end of [...again, ends[7]!]) end();
    await wait(QUIET_MS * 2);
    assert.equal(memory.trims, 1);
  } finally {
    stop();
  }
});

Deno.test("memory trim: less than the threshold above the lowest RSS is left", async () => {
  const { inflight, memory, stop } = rig(100 * MIB, 90 * MIB);
  try {
    memory.rss = 163 * MIB;
    for (const end of run(inflight, 4)) end();
    await wait(QUIET_MS * 1.5);
    assert.equal(memory.trims, 0, "63 MiB above the start is under the 64 MiB threshold");
    // The RSS fell by itself (the runtime's heap shrank): the mark follows it down.
    memory.rss = 20 * MIB;
    await wait(QUIET_MS * 2);
    memory.rss = 84 * MIB;
    await wait(QUIET_MS * 4.5);
    assert.equal(memory.trims, 1, "64 MiB above the lowest reading");
  } finally {
    stop();
  }
});

Deno.test("memory trim: the looks go on, further apart, while requests still run", async () => {
  const { inflight, memory, stop } = rig(100 * MIB, 90 * MIB);
  try {
    const ends = run(inflight, 8);
    for (const end of ends.slice(0, 6)) end();
    await wait(QUIET_MS * 1.5);
    assert.equal(memory.reads.length, 2, "the start's reading and the first look");
    // The runtime frees what the load left later, with no request coming or going.
    memory.rss = 300 * MIB;
    await wait(QUIET_MS * 6);
    assert.equal(memory.trims, 1, "the second look, two quiet times after the first");
    await wait(QUIET_MS * 4);
    // A trim reads the RSS twice (before and after): one look.
    const looks = memory.reads.slice(1).filter((at, i, all) => i === 0 || at - all[i - 1]! > 5);
    const gaps = looks.slice(1).map((at, i) => at - looks[i]!);
    assert.ok(gaps.length >= 2, `looks at ${looks}`);
    assert.ok(gaps.every((gap, i) => i === 0 || gap > gaps[i - 1]! * 1.5), `gaps ${gaps}`);
    for (const end of ends.slice(6)) end();
  } finally {
    stop();
  }
});

Deno.test("memory trim: stopping cancels the look under way", async () => {
  const { inflight, memory, stop } = rig(10 * MIB, 90 * MIB);
  memory.rss = 300 * MIB;
  for (const end of run(inflight, 4)) end();
  stop();
  await wait(QUIET_MS * 3);
  assert.equal(memory.trims, 0);
});

/** What `openMallocTrim` answers, and what `startMemoryTrim` logs, in a process run with
 * `permissions` (the test's own may grant FFI or not). */
async function inChild(
  permissions: string[],
): Promise<{ off?: string; lines: string[] }> {
  const module = (name: string) => JSON.stringify(new URL(name, import.meta.url).href);
  const script = `const { openMallocTrim, startMemoryTrim } = await import(${
    module("./memory_trim.ts")
  });
const { InFlight } = await import(${module("../gateway/in_flight.ts")});
const { memoryLogger } = await import(${module("../gateway/log.ts")});
const opened = openMallocTrim();
if ("trim" in opened) opened.trim();
const log = memoryLogger();
startMemoryTrim(new InFlight(), 64, log)();
console.log(JSON.stringify({ off: opened.off, lines: log.lines.map((l) => l.message) }));`;
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
  assert.match(off ?? "", Deno.build.os === "linux" ? /ffi permission is not granted/ : /glibc/);
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /^memory trim off: .*freed memory stays with the process/);
});

Deno.test("memory trim: GATEHOUSE_MEMORY_TRIM_MB=0, or a worker but the first, without a word", () => {
  const log = memoryLogger();
  startMemoryTrim(new InFlight(), 0, log)();
  startMemoryTrim(new InFlight(), 64, log, 1)();
  assert.deepEqual(log.lines, []);
});

Deno.test({
  name: "memory trim: with --allow-ffi on Linux, glibc's malloc_trim runs",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const { off, lines } = await inChild(["--allow-read", "--allow-ffi"]);
    assert.equal(off, undefined);
    assert.deepEqual(lines, [], "a trim that is on says nothing until it trims");
  },
});
