/**
 * The machine a bench ran on, for its results file: CPU model and count, memory, kernel, Deno and
 * wrk versions. Read with `cat`, `uname` and `wrk` (Deno lets only --allow-all read /proc).
 * @module
 */

/** What the results file says about the machine. */
export interface Machine {
  cpuModel: string | null;
  cpus: number;
  memoryGiB: number | null;
  kernel: string | null;
  deno: typeof Deno.version;
  wrk: string | null;
}

async function run(command: string, args: string[]): Promise<string | null> {
  try {
    const { stdout, stderr } = await new Deno.Command(command, {
      args,
      stdout: "piped",
      stderr: "piped",
    })
      .output();
    const decoder = new TextDecoder();
    return `${decoder.decode(stdout)}${decoder.decode(stderr)}`;
  } catch {
    return null;
  }
}

/** Reads the machine's description; a part that cannot be read is null. */
export async function describeMachine(): Promise<Machine> {
  const cpuinfo = await run("cat", ["/proc/cpuinfo"]);
  const meminfo = await run("cat", ["/proc/meminfo"]);
  const memKb = Number(/^MemTotal:\s+(\d+) kB/m.exec(meminfo ?? "")?.[1] ?? NaN);
  const wrk = await run("wrk", ["--version"]);
  return {
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo ?? "")?.[1]?.trim() ?? null,
    cpus: navigator.hardwareConcurrency,
    memoryGiB: Number.isFinite(memKb) ? Math.round(memKb / 1024 / 1024 * 10) / 10 : null,
    kernel: (await run("uname", ["-sr"]))?.trim() || null,
    deno: Deno.version,
    wrk: /^wrk \S+/m.exec(wrk ?? "")?.[0] ?? null,
  };
}

/** The steal time between two `/proc/stat` readings taken `ms` apart: core-seconds the virtual
 * machine's host gave to other guests, and their share of the machine's cores over the run. */
export function stolenShare(
  before: { stolenS: number },
  after: { stolenS: number },
  ms: number,
): { seconds: number; share: number } {
  const seconds = Math.max(0, after.stolenS - before.stolenS);
  const capacity = (ms / 1000) * navigator.hardwareConcurrency;
  return { seconds, share: capacity > 0 ? seconds / capacity : 0 };
}

/** The commit the bench measured: `git describe --always --dirty` (`…-dirty` when the working
 * tree had changes), or null outside a git checkout. */
export async function sourceCommit(): Promise<string | null> {
  try {
    const { code, stdout } = await new Deno.Command("git", {
      args: ["describe", "--always", "--dirty"],
      stdout: "piped",
      stderr: "null",
    }).output();
    return code === 0 ? new TextDecoder().decode(stdout).trim() || null : null;
  } catch {
    return null;
  }
}
