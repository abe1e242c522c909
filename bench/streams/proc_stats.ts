/**
 * What the streams bench reads of its processes in `/proc`: resident memory and CPU time. Read
 * with `cat` (Deno lets only --allow-all read /proc), all processes in one call.
 * @module
 */

/** One process's figures at one moment. */
export interface ProcStat {
  /** Resident memory, MB. */
  rssMb: number;
  /** User plus system CPU time so far, s. */
  cpuS: number;
}

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ: 100 on Linux). */
const TICKS = 100;

/** The figures of each of `pids` (NaN for one that is gone). */
export async function procStats(pids: readonly number[]): Promise<ProcStat[]> {
  const files = pids.flatMap((pid) => [`/proc/${pid}/status`, `/proc/${pid}/stat`]);
  const { stdout } = await new Deno.Command("cat", { args: files, stdout: "piped", stderr: "null" })
    .output();
  const text = new TextDecoder().decode(stdout);
  // Each status file starts with "Name:"; each stat line with "<pid> (".
  return pids.map((pid) => {
    const status = new RegExp(`^Pid:\\s+${pid}$[\\s\\S]*?^VmRSS:\\s+(\\d+) kB`, "m").exec(text);
    const stat = new RegExp(`^${pid} \\(.*?\\) (.*)$`, "m").exec(text);
    // After "(comm)": state is field 3; utime and stime are fields 14 and 15.
    const fields = stat?.[1]?.split(" ") ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { rssMb: Number(status?.[1]) / 1024, cpuS: ticks / TICKS };
  });
}

/** CPU time the whole machine used so far (`/proc/stat`), s: in processes (what others used
 * during a run is this less the run's own processes), in interrupts (mostly the kernel's work on
 * the run's own loopback traffic, which no process is charged with), and stolen: time the
 * virtual machine's host gave its cores to other guests (a noisy neighbour; 0 on bare metal). */
export async function machineBusy(): Promise<
  { processS: number; interruptS: number; stolenS: number }
> {
  const { stdout } = await new Deno.Command("cat", { args: ["/proc/stat"], stdout: "piped" })
    .output();
  const line = /^cpu (.*)$/m.exec(new TextDecoder().decode(stdout))?.[1] ?? "";
  // user nice system idle iowait irq softirq steal …
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  return {
    processS: (user! + nice! + system!) / TICKS,
    interruptS: (irq! + softirq!) / TICKS,
    stolenS: (steal ?? 0) / TICKS,
  };
}

/** This process's own id, for its CPU time. */
export const SELF = Deno.pid;
