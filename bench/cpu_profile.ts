/**
 * CPU profiles of the gateway process: the V8 sampling profiler driven in-process through
 * `node:inspector` (Deno has no `--cpu-prof`; attaching over `--inspect` makes Deno emit a
 * Network event per fetch, which would dominate the profile), and a summary of where the time
 * went. The raw profile opens in Chrome DevTools (Performance → load profile).
 * @module
 */
import { Session } from "node:inspector";

/** A V8 CPU profile, as `Profiler.stop` returns it. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    hitCount?: number;
    children?: number[];
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The child's side: `profile start` starts sampling every `intervalUs`; `profile stop FILE`
 * writes the profile to FILE; `allocations start BYTES` starts V8's sampling heap profiler (an
 * allocation sampled every BYTES on average, kept whether or not it is collected);
 * `allocations stop FILE` writes its profile (`allocation_sites.ts` reads it). Files are
 * written via a temporary name, so each appears complete. */
export function profileCommands(intervalUs = 100): (line: string) => Promise<void> {
  let session: Session | null = null;
  const post = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve, reject) =>
      session!.post(
        method,
        params,
        (error: unknown, result: unknown) => error ? reject(error) : resolve(result),
      )
    );
  const open = () => {
    session = new Session();
    session.connect();
  };
  const close = async (result: unknown, file: string) => {
    session!.disconnect();
    session = null;
    await Deno.writeTextFile(`${file}.partial`, JSON.stringify(result));
    await Deno.rename(`${file}.partial`, file);
  };
  return async (line) => {
    const [command, action, argument] = line.split(" ");
    if (command === "profile" && action === "start" && session === null) {
      open();
      await post("Profiler.enable");
      await post("Profiler.setSamplingInterval", { interval: intervalUs });
      await post("Profiler.start");
    } else if (command === "profile" && action === "stop" && session && argument) {
      await close(((await post("Profiler.stop")) as { profile: CpuProfile }).profile, argument);
    } else if (command === "allocations" && action === "start" && session === null) {
      open();
      await post("HeapProfiler.enable");
      await post("HeapProfiler.startSampling", {
        samplingInterval: Number(argument),
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    } else if (command === "allocations" && action === "stop" && session && argument) {
      const { profile } = await post("HeapProfiler.stopSampling") as { profile: unknown };
      await close(profile, argument);
    }
  };
}

/** Waits until `file` exists and reads the profile in it. */
export async function readProfileWhenWritten<T = CpuProfile>(
  file: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      return JSON.parse(await Deno.readTextFile(file)) as T;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (performance.now() > deadline) throw new Error(`no profile was written to ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Self and total milliseconds of one function or file. */
export interface Hotspot {
  name: string;
  selfMs: number;
  totalMs: number;
}

function shortUrl(url: string): string {
  const npm = url.indexOf("/node_modules/");
  if (npm !== -1) return url.slice(npm + "/node_modules/".length).replace(/^\.deno\//, "");
  const root = url.lastIndexOf("/work/main/");
  if (root !== -1) return url.slice(root + "/work/main/".length);
  return url.replace(/^ext:/, "ext:");
}

/** Where a profile spent its time: functions and files by self time, with total (inclusive)
 * time; recursion is counted once per sample. */
export function summarize(profile: CpuProfile): { functions: Hotspot[]; files: Hotspot[] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const functions = new Map<string, Hotspot>();
  const files = new Map<string, Hotspot>();
  const bump = (map: Map<string, Hotspot>, name: string, self: number, total: number) => {
    const spot = map.get(name) ?? { name, selfMs: 0, totalMs: 0 };
    spot.selfMs += self;
    spot.totalMs += total;
    map.set(name, spot);
  };
  profile.samples.forEach((sample, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    const seenFunctions = new Set<string>();
    const seenFiles = new Set<string>();
    for (let id: number | undefined = sample, depth = 0; id !== undefined; depth++) {
      const frame = byId.get(id)!.callFrame;
      const file = frame.url === "" ? `(${frame.functionName || "native"})` : shortUrl(frame.url);
      const fn = `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`;
      if (!seenFunctions.has(fn)) {
        bump(functions, fn, depth === 0 ? ms : 0, ms);
        seenFunctions.add(fn);
      }
      if (!seenFiles.has(file)) {
        bump(files, file, depth === 0 ? ms : 0, ms);
        seenFiles.add(file);
      }
      id = parent.get(id);
    }
  });
  const bySelf = (map: Map<string, Hotspot>) =>
    [...map.values()].sort((a, b) => b.selfMs - a.selfMs);
  return { functions: bySelf(functions), files: bySelf(files) };
}

/** Writes `profile` to `file` and prints where the time went: the top functions and files by
 * self time. */
export async function writeProfile(profile: CpuProfile, file: string): Promise<void> {
  await Deno.writeTextFile(file, JSON.stringify(profile));
  const { functions, files } = summarize(profile);
  const line = (h: Hotspot) =>
    `  ${h.selfMs.toFixed(0).padStart(7)} ${h.totalMs.toFixed(0).padStart(7)}  ${h.name}`;
  console.log(`CPU profile ${file}: self and total ms\nfunctions:`);
  for (const h of functions.slice(0, 30)) console.log(line(h));
  console.log("files:");
  for (const h of files.slice(0, 20)) console.log(line(h));
}
