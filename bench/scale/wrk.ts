/**
 * The external load generator of the scale-out bench: `wrk`, driven by a Lua script that POSTs
 * one JSON body with fixed headers, and a pure parser of its `--latency` report.
 * @module
 */

/** What one `wrk --latency` run reported. */
export interface WrkResult {
  /** Requests completed in the run. */
  requests: number;
  /** Seconds the run took, as wrk measured it. */
  seconds: number;
  /** `Requests/sec:`. */
  rps: number;
  /** Latency percentiles from the "Latency Distribution" block, in milliseconds. */
  p50: number;
  p75: number;
  p90: number;
  p99: number;
  /** Responses with a status of 400 or more ("Non-2xx or 3xx responses"; 0 when absent). */
  non2xx: number;
  /** Socket errors: connect, read, write, timeout (0 each when the line is absent). */
  socketErrors: { connect: number; read: number; write: number; timeout: number };
}

const UNITS_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A wrk duration (`812.00us`, `2.10ms`, `1.02s`, `1.50m`) in milliseconds. */
export function durationMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim());
  if (match === null) throw new Error(`wrk: "${text}" is not a duration`);
  return Number(match[1]) * UNITS_MS[match[2]!]!;
}

function percentile(output: string, percent: number): number {
  const match = new RegExp(`^\\s*${percent}(?:\\.0+)?%\\s+(\\S+)\\s*$`, "m").exec(output);
  if (match === null) throw new Error(`wrk: no ${percent}% latency in the output (ran --latency?)`);
  return durationMs(match[1]!);
}

/** Reads a wrk `--latency` report; throws a message naming what is missing. */
export function parseWrk(output: string): WrkResult {
  const total = /^\s*(\d+) requests in ([\d.]+)(us|ms|s|m|h),/m.exec(output);
  if (total === null) throw new Error(`wrk: no "N requests in" line in:\n${output}`);
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(output);
  if (rps === null) throw new Error(`wrk: no "Requests/sec:" line in:\n${output}`);
  const non2xx = /^\s*Non-2xx or 3xx responses:\s+(\d+)/m.exec(output);
  const socket = /^\s*Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/m.exec(
    output,
  );
  return {
    requests: Number(total[1]),
    seconds: durationMs(`${total[2]}${total[3]}`) / 1000,
    rps: Number(rps[1]),
    p50: percentile(output, 50),
    p75: percentile(output, 75),
    p90: percentile(output, 90),
    p99: percentile(output, 99),
    non2xx: non2xx === null ? 0 : Number(non2xx[1]),
    socketErrors: {
      connect: Number(socket?.[1] ?? 0),
      read: Number(socket?.[2] ?? 0),
      write: Number(socket?.[3] ?? 0),
      timeout: Number(socket?.[4] ?? 0),
    },
  };
}

/** A Lua long string holding `text` verbatim: its level has more `=` than any `]=*]` in it. */
function luaLongString(text: string): string {
  let level = 0;
  while (text.includes(`]${"=".repeat(level)}]`)) level++;
  const eq = "=".repeat(level);
  // A newline right after the opening bracket is dropped by Lua, so one is always put there.
  return `[${eq}[\n${text}]${eq}]`;
}

/** The wrk script that sends `body` by POST with `headers` on every request. */
export function wrkScript(body: string, headers: Record<string, string>): string {
  const lines = ['wrk.method = "POST"', `wrk.body = ${luaLongString(body)}`];
  for (const [name, value] of Object.entries(headers)) {
    lines.push(`wrk.headers[ ${luaLongString(name)} ] = ${luaLongString(value)}`);
  }
  return lines.join("\n") + "\n";
}

/** Whether `wrk` can be run (it is on PATH; `wrk --version` exits 1 after its usage). */
export async function wrkInstalled(): Promise<boolean> {
  try {
    await new Deno.Command("wrk", { args: ["--version"], stdout: "null", stderr: "null" })
      .output();
    return true;
  } catch {
    return false;
  }
}

/** One wrk run. */
export interface WrkRun {
  /** The full request URL. */
  url: string;
  /** The Lua script's text. */
  script: string;
  connections: number;
  threads: number;
  seconds: number;
}

/** Runs wrk once with `--latency` and parses its report; throws with wrk's output when it
 * fails. */
export async function runWrk(run: WrkRun): Promise<WrkResult & { output: string }> {
  const file = await Deno.makeTempFile({ prefix: "gatehouse_wrk_", suffix: ".lua" });
  try {
    await Deno.writeTextFile(file, run.script);
    const { code, stdout, stderr } = await new Deno.Command("wrk", {
      args: [
        `-t${run.threads}`,
        `-c${run.connections}`,
        `-d${run.seconds}s`,
        "--latency",
        "-s",
        file,
        run.url,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const output = new TextDecoder().decode(stdout);
    if (code !== 0) {
      throw new Error(`wrk exited with ${code}: ${new TextDecoder().decode(stderr)}${output}`);
    }
    return { ...parseWrk(output), output };
  } finally {
    await Deno.remove(file).catch(() => {});
  }
}
