/**
 * A process's CPU time, for CPU µs per request: user plus system time of every thread of the
 * process (`utime` and `stime` of `/proc/<pid>/stat`, which the kernel sums over the thread
 * group), read before and after a load run. Unlike throughput, this figure does not depend on
 * how the machine's shared cores were split between the load generator, the upstream and the
 * measured process. Linux only; read by `cat` (Deno lets only --allow-all read /proc).
 * @module
 */

/** Clock ticks per second of `/proc/<pid>/stat`'s times: the kernel's USER_HZ, which is 100 on
 * every Linux architecture Deno runs on (`getconf CLK_TCK` prints 100 on the bench box). */
export const CLOCK_TICKS_PER_SECOND = 100;

/** The CPU time in a `/proc/<pid>/stat` line, ms: `utime + stime` (fields 14 and 15), counted
 * after the last `)` since the command name (field 2) may hold spaces and parentheses. */
export function parseStatCpuMs(stat: string): number {
  const end = stat.lastIndexOf(")");
  // Fields from 3 (the state) on: utime (14) is the 12th of them, stime (15) the 13th.
  const fields = stat.slice(end + 1).trim().split(/\s+/);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (end === -1 || !Number.isInteger(utime) || !Number.isInteger(stime)) {
    throw new Error(`not a /proc/<pid>/stat line: ${stat.slice(0, 200)}`);
  }
  return ((utime + stime) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The CPU time process `pid` has used so far (all its threads), ms, in steps of 10 ms. */
export async function processCpuMs(pid: number): Promise<number> {
  const { success, stdout, stderr } = await new Deno.Command("cat", {
    args: [`/proc/${pid}/stat`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!success) {
    throw new Error(`cannot read /proc/${pid}/stat: ${new TextDecoder().decode(stderr).trim()}`);
  }
  return parseStatCpuMs(new TextDecoder().decode(stdout));
}

/** CPU µs per request: `cpuMs` spent on `requests` requests (NaN when there were none). */
export function cpuUsPerRequest(cpuMs: number, requests: number): number {
  return requests > 0 ? (cpuMs * 1000) / requests : NaN;
}

/** Requests per second one core could serve at `usPerRequest` CPU µs each (NaN when unknown). */
export function perCoreRate(usPerRequest: number): number {
  return usPerRequest > 0 ? 1e6 / usPerRequest : NaN;
}

/** Runs `work` and returns its result with the CPU time process `pid` used meanwhile, ms,
 * read `settleMs` after `work` ends (so the requests still in flight when the load generator
 * stopped, and their batched writes, are counted too). */
export async function withCpuTime<T>(
  pid: number,
  work: () => Promise<T>,
  settleMs = 100,
): Promise<{ value: T; cpuMs: number }> {
  const before = await processCpuMs(pid);
  const value = await work();
  if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
  return { value, cpuMs: (await processCpuMs(pid)) - before };
}
