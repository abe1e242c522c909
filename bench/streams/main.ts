/**
 * `deno task bench --only=streams` (issue #19): many long streams through one process. The fake
 * upstream's paced chat stream (`bench-paced-<chunks>x<ms>`: a chunk every `ms`) read through
 * gatehouse (the real `main.ts`), through the minimal Deno proxy, or straight from the upstream
 * (`targets.ts`); the bench opens `--streams` of them over `--ramp` ms (default 10 s, in batches
 * of 250: every stream is open at once for most of its 30 s) and reads each to its end, timing
 * the gap between chunks (`read_stream.ts`: raw sockets by default, `--reader=fetch`); the
 * measured process's resident memory is sampled throughout, and every process's CPU time is
 * read before and after. Reports: streams completed, the largest gaps beyond the upstream's
 * own, RSS idle / at peak / after, bytes per open stream, the measured process's CPU time per
 * chunk (and as a multiple of the upstream's, which compares runs on a box whose speed drifts),
 * and who used the two cores; with `--inspect`, the measured process's memory from inside (V8
 * heap, external, native) while the streams are open and after a forced garbage collection. Writes bench/results/streams.json
 * (`streams-<target>.json` for the other targets).
 *
 *   deno task bench --only=streams                     10,000 streams of 60 chunks × 500 ms
 *   deno task bench --only=streams --streams=2000 --chunks=20 --interval=500
 *   deno task bench --only=streams --target=gatehouse,proxy,direct   each in turn, one table
 *   deno task bench --only=streams --inspect           memory from inside (heap, external, …)
 *   deno task bench --only=streams --snapshot=/tmp/s   heap snapshots when idle and while
 *                                                      the streams are open: /tmp/s-idle…,
 *                                                      /tmp/s-open.heapsnapshot (heap_summary.ts)
 *   deno task bench --only=streams --cpu-profile=/tmp/p.cpuprofile   where the CPU went
 *   deno task bench --only=streams --allocations       where the allocations were made
 *   deno task bench --only=streams --v8-flags=--trace-gc --output=/tmp/gc.txt   its output kept
 *   deno task bench --only=streams --prompt-bytes=50000  each request 50 kB longer
 *   deno task bench --only=streams --workers=2          gatehouse on 2 worker threads
 *                                                      (bench/results/streams-workers2.json)
 *   deno task bench --only=streams --env=GATEHOUSE_UPSTREAM_CLIENT=fetch --v8-flags=--max-semi-space-size=1
 *
 * Each stream holds two sockets in gatehouse or the proxy (client and upstream), one in the
 * upstream itself: 10,000 streams through a process need more than 20,000 open files. When the
 * limit (`ulimit -n`) is lower, the count is lowered to fit and the report says so.
 * @module
 */
import { writeProfile } from "../cpu_profile.ts";
import { chatRequest } from "../scenarios.ts";
import { describeMachine } from "../machine.ts";
import type { AllocationSite } from "../allocation_sites.ts";
import { type Inspector, type MemoryUsage, openInspector } from "./inspector.ts";
import { machineBusy, procStats, SELF } from "./proc_stats.ts";
import { fetchStream, rawStream, type StreamRead, type StreamRequest } from "./read_stream.ts";
import { formatSummary, type RunFigures, summarize } from "./stream_report.ts";
import { resultsFile, runLabel, type StreamSettings, streamSettings } from "./stream_settings.ts";
import { startTarget, type TargetName } from "./targets.ts";

const BATCH = 250;

/** When the RSS after the streams is read, and read again once it settled, ms after the last
 * stream ended. */
const AFTER_MS = 3000;
const SETTLED_MS = 20_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function shellText(command: string): Promise<string> {
  const { stdout } = await new Deno.Command("bash", { args: ["-c", command], stdout: "piped" })
    .output();
  return new TextDecoder().decode(stdout).trim();
}

/** The bench's chat request for `model`, its last user message grown by `extra` bytes of text
 * (a long conversation: what a gateway holds of a request while its stream is open). */
function paddedChat(model: string, extra: number): Record<string, unknown> {
  const body = chatRequest(model, true);
  if (extra === 0) return body;
  const messages = body.messages as { role: string; content: string }[];
  const last = messages.at(-1)!;
  const words = "the quick brown fox jumps over the lazy dog ";
  last.content += words.repeat(Math.ceil(extra / words.length)).slice(0, extra);
  return body;
}

/** Prints where the sampled allocations were made. */
function printAllocations(sites: AllocationSite[]): void {
  const total = sites.reduce((sum, s) => sum + s.bytes, 0);
  console.log(`allocations sampled: ${(total / 2 ** 20).toFixed(0)} MB; largest sites:`);
  for (const s of sites.slice(0, 30)) {
    console.log(`  ${(s.bytes / 2 ** 20).toFixed(1).padStart(7)} MB  ${s.site}`);
  }
}

/** One target's run. */
async function runTarget(
  name: TargetName,
  settings: StreamSettings,
  limit: number,
): Promise<{ result: Record<string, unknown>; problems: string[] }> {
  const { chunks, intervalMs, rampMs } = settings;
  const files = name === "direct" ? 1 : 2;
  const fits = Number.isFinite(limit) ? Math.floor((limit - 300) / files) : settings.streams;
  const streams = Math.min(settings.streams, fits);
  const lowered = streams < settings.streams
    ? `${settings.streams} streams need about ${files * settings.streams + 300} open files in ` +
      `the ${name === "direct" ? "upstream" : name} process; this machine allows ${limit} ` +
      `(ulimit -n, not raisable here), so ${streams} were opened`
    : null;
  console.log(
    `${name}: ${streams} concurrent chat streams of ${chunks} chunks, one every ${intervalMs} ` +
      `ms, read with ${settings.reader}` + (lowered ? ` (${lowered})` : ""),
  );
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_streams_" });
  const problems: string[] = [];
  const target = await startTarget(name, dir, settings);
  let inspector: Inspector | null = null;
  try {
    const pid = target.measured.pid;
    if (settings.inspect) inspector = await openInspector(target.measured.inspector!);
    const read = settings.reader === "raw" ? rawStream : fetchStream;
    const request = (model: string): StreamRequest => ({
      url: target.url,
      authorization: target.authorization,
      body: JSON.stringify(paddedChat(model, settings.promptBytes)),
    });
    // Warm the paths once, then read the idle figures.
    await read(request("bench-paced-2x10"));
    await sleep(1000);
    const idle = (await procStats([pid]))[0]!.rssMb;
    await inspector?.collectGarbage();
    const idleInside = await inspector?.memory();
    if (inspector && settings.snapshot) {
      await inspector.heapSnapshot(`${settings.snapshot}-idle.heapsnapshot`);
    }
    let peak = idle;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, (await procStats([pid]))[0]!.rssMb);
        await sleep(250);
      }
    })();
    const pids = [...target.processes.map((p) => p.pid), SELF];
    const cpuBefore = await procStats(pids);
    const machineBefore = await machineBusy();
    if (settings.cpuProfile) await inspector!.startProfile(200);
    if (settings.allocations) await inspector!.startAllocations(16 * 1024);
    const started = performance.now();
    const body = request(`bench-paced-${chunks}x${intervalMs}`);
    const reads: Promise<StreamRead>[] = [];
    let open = 0;
    const counted = async () => {
      open++;
      try {
        return await read(body);
      } finally {
        open--;
      }
    };
    for (let opened = 0; opened < streams; opened += BATCH) {
      for (let i = opened; i < Math.min(streams, opened + BATCH); i++) reads.push(counted());
      await sleep(rampMs / Math.ceil(streams / BATCH));
    }
    // Every stream is open (the first ones end after chunks × interval).
    let openInside: (MemoryUsage & { open: number }) | null = null;
    let openLive: MemoryUsage | null = null;
    if (inspector) {
      const openAt = open;
      openInside = { ...await inspector.memory(), open: openAt };
      // What the open streams hold, garbage aside (the full collection pauses the process
      // once, in this inspected run only).
      await inspector.collectGarbage();
      openLive = await inspector.memory();
      if (settings.snapshot) {
        await inspector.heapSnapshot(`${settings.snapshot}-open.heapsnapshot`);
      }
    }
    const outcomes = await Promise.all(reads);
    const seconds = (performance.now() - started) / 1000;
    if (settings.cpuProfile) {
      await writeProfile(await inspector!.stopProfile(), settings.cpuProfile);
    }
    if (settings.allocations) printAllocations(await inspector!.stopAllocations());
    const cpuAfter = await procStats(pids);
    const machineAfter = await machineBusy();
    sampling = false;
    await sampler;
    await sleep(AFTER_MS);
    const after = (await procStats([pid]))[0]!.rssMb;
    // What the process gives back by itself takes longer: the runtime shrinks its heap some
    // seconds after the load, gatehouse trims malloc's free pages (cluster/memory_trim.ts).
    await sleep(SETTLED_MS - AFTER_MS);
    const settled = (await procStats([pid]))[0]!.rssMb;
    let afterGc: MemoryUsage | null = null;
    if (inspector) {
      await inspector.collectGarbage();
      await sleep(1000);
      afterGc = await inspector.memory();
    }
    const cpu = (i: number) => cpuAfter[i]!.cpuS - cpuBefore[i]!.cpuS;
    const ours = pids.reduce((sum, _, i) => sum + cpu(i), 0);
    const figures: RunFigures = {
      target: runLabel(name, settings.workers),
      reader: settings.reader,
      streams,
      chunks,
      intervalMs,
      rampMs,
      promptBytes: settings.promptBytes,
      seconds,
      startedAt: started,
      outcomes,
      rss: { idle, peak, after, settled, afterGc: afterGc === null ? null : afterGc.rss / 2 ** 20 },
      cpuSeconds: Object.fromEntries(
        target.processes.map((_, i) => [i === 0 ? "upstream" : name, cpu(i)]).concat([
          ["bench", cpu(pids.length - 1)],
          // The kernel's interrupt work (the run's loopback traffic, mostly).
          ["interrupts", machineAfter.interruptS - machineBefore.interruptS],
          // Everything else the machine ran meanwhile (other work on a shared box).
          ["others", Math.max(0, machineAfter.processS - machineBefore.processS - ours)],
          // Taken by the virtual machine's host: the run had that much less machine.
          ["stolen", machineAfter.stolenS - machineBefore.stolenS],
        ]),
      ),
      inside: inspector
        ? { idle: idleInside!, open: openInside!, openLive: openLive!, afterGc: afterGc! }
        : null,
      lowered,
    };
    const result = summarize(figures);
    console.log(JSON.stringify(result, null, 2));
    const completed = result.completed as number;
    if (completed < streams) {
      problems.push(`${name}: ${streams - completed} streams did not complete`);
    }
    return { result, problems };
  } finally {
    inspector?.close();
    problems.push(...await target.stop());
    if (settings.output) await Deno.writeTextFile(settings.output, target.measured.output());
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** Runs the streams bench with the bench's arguments; returns the exit code. */
export async function runStreams(args: readonly string[]): Promise<number> {
  const settings = streamSettings(args);
  const limit = Number(await shellText("ulimit -n"));
  const problems: string[] = [];
  const results: Record<string, unknown>[] = [];
  for (const name of settings.targets) {
    const run = await runTarget(name, settings, limit);
    results.push(run.result);
    problems.push(...run.problems);
    const file = new URL(
      `../results/${resultsFile(name, settings.workers)}`,
      import.meta.url,
    );
    await Deno.mkdir(new URL("../results/", import.meta.url), { recursive: true });
    const machine = await describeMachine();
    const finishedAt = new Date().toISOString();
    await Deno.writeTextFile(
      file,
      JSON.stringify({ finishedAt, machine, result: run.result, problems: run.problems }, null, 2) +
        "\n",
    );
    console.log(`wrote ${file.pathname}`);
  }
  console.log(formatSummary(results));
  if (problems.length > 0) console.log(`Problems:\n  ${problems.join("\n  ")}`);
  return problems.length > 0 ? 1 : 0;
}
