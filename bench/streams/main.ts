/**
 * `deno task bench --only=streams` (issue #19): many long streams through one gateway process.
 * The real `main.ts` (SQLite, metrics on, no request log) in front of the fake upstream's paced
 * chat stream (`bench-paced-<chunks>x<ms>`: a chunk every `ms`); the bench opens `--streams`
 * of them over `--ramp` ms (default 10 s, in batches of 250: every stream is open at once for
 * most of its 30 s) and reads each to its end, timing the gap
 * between chunks; the gateway's resident memory (`/proc/<pid>/status`) is sampled throughout.
 * Reports: streams completed, the largest gap beyond the upstream's own, RSS idle / at peak /
 * after, and bytes per open stream. Writes bench/results/streams.json.
 *
 *   deno task bench --only=streams                     10,000 streams of 60 chunks × 500 ms
 *   deno task bench --only=streams --streams=1000 --chunks=10 --interval=200
 *
 * Each stream holds two connections in the gateway (client and upstream): 10,000 streams need
 * more than 20,000 open files. When the process's limit (`ulimit -n`) is lower, the count is
 * lowered to fit and the report says so.
 * @module
 */
import { BENCH_KEY_ENV, BENCH_UPSTREAM_KEY, benchCatalog } from "../bench_catalog.ts";
import { startChild } from "../processes.ts";
import { chatRequest } from "../scenarios.ts";
import { createBenchKey } from "../scale/admin_api.ts";
import { startGateway } from "../scale/gateway_process.ts";
import { describeMachine } from "../machine.ts";

const BATCH = 250;

function numberArg(args: readonly string[], name: string, fallback: number): number {
  const raw = args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number`);
  return value;
}

async function text(command: string, args: string[]): Promise<string> {
  const { stdout } = await new Deno.Command(command, { args, stdout: "piped", stderr: "null" })
    .output();
  return new TextDecoder().decode(stdout);
}

/** Resident memory of `pid`, MB. */
async function rssMb(pid: number): Promise<number> {
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(await text("cat", [`/proc/${pid}/status`]))?.[1]);
  return kb / 1024;
}

/** One stream's outcome. */
interface StreamRead {
  ok: boolean;
  /** Largest gap between two chunks, ms. */
  maxGapMs: number;
  error: string | null;
}

async function readStream(url: string, key: string, body: string): Promise<StreamRead> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
    });
    if (!response.ok || response.body === null) {
      return { ok: false, maxGapMs: 0, error: `HTTP ${response.status}` };
    }
    const decoder = new TextDecoder();
    let tail = "";
    let last = performance.now();
    let maxGapMs = 0;
    for await (const chunk of response.body) {
      const now = performance.now();
      maxGapMs = Math.max(maxGapMs, now - last);
      last = now;
      tail = (tail + decoder.decode(chunk, { stream: true })).slice(-64);
    }
    const ok = tail.includes("[DONE]");
    return { ok, maxGapMs, error: ok ? null : "ended without [DONE]" };
  } catch (error) {
    return { ok: false, maxGapMs: 0, error: String(error) };
  }
}

/** Runs the streams bench with the bench's arguments; returns the exit code. */
export async function runStreams(args: readonly string[]): Promise<number> {
  const asked = numberArg(args, "streams", 10_000);
  const chunks = numberArg(args, "chunks", 60);
  const intervalMs = numberArg(args, "interval", 500);
  const rampMs = numberArg(args, "ramp", 10_000);
  const limit = Number((await text("bash", ["-c", "ulimit -n"])).trim());
  const fits = Number.isFinite(limit) ? Math.floor((limit - 300) / 2) : asked;
  const streams = Math.min(asked, fits);
  const lowered = streams < asked
    ? `${asked} streams need about ${2 * asked + 300} open files in the gateway; this machine ` +
      `allows ${limit} (ulimit -n, not raisable here), so ${streams} were opened`
    : null;
  console.log(
    `gatehouse streams bench: ${streams} concurrent chat streams of ${chunks} chunks, one every ` +
      `${intervalMs} ms, through one main.ts process` + (lowered ? ` (${lowered})` : ""),
  );
  const upstream = await startChild("fake upstream", "bench/fake_upstream.ts", []);
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_streams_" });
  const problems: string[] = [];
  try {
    const catalog = `${dir}/catalog.json`;
    await Deno.writeTextFile(catalog, JSON.stringify(benchCatalog(upstream.url)));
    const gateway = await startGateway([], {
      PORT: "0",
      HOST: "127.0.0.1",
      DOCS_PORT: "off",
      GATEHOUSE_QUIET: "1",
      GATEHOUSE_CONFIG: catalog,
      GATEHOUSE_DB: `${dir}/gatehouse.db`,
      [BENCH_KEY_ENV]: BENCH_UPSTREAM_KEY,
    });
    let result: Record<string, unknown>;
    try {
      const key = await createBenchKey(gateway.url, gateway.adminKey!, false);
      const url = `${gateway.url}/v1/chat/completions`;
      const body = JSON.stringify(chatRequest(`bench-paced-${chunks}x${intervalMs}`, true));
      // Warm the paths once, then read the idle figure.
      await readStream(url, key, JSON.stringify(chatRequest("bench-paced-2x10", true)));
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const idle = await rssMb(gateway.pid);
      let peak = idle;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          peak = Math.max(peak, await rssMb(gateway.pid));
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      })();
      const started = performance.now();
      const reads: Promise<StreamRead>[] = [];
      for (let opened = 0; opened < streams; opened += BATCH) {
        for (let i = opened; i < Math.min(streams, opened + BATCH); i++) {
          reads.push(readStream(url, key, body));
        }
        await new Promise((resolve) => setTimeout(resolve, rampMs / Math.ceil(streams / BATCH)));
      }
      const outcomes = await Promise.all(reads);
      const tookS = (performance.now() - started) / 1000;
      sampling = false;
      await sampler;
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const after = await rssMb(gateway.pid);
      const completed = outcomes.filter((o) => o.ok).length;
      const gaps = outcomes.filter((o) => o.ok).map((o) => o.maxGapMs).sort((a, b) => a - b);
      const worstGap = gaps.at(-1) ?? NaN;
      const errors = [...new Set(outcomes.flatMap((o) => o.error === null ? [] : [o.error]))];
      result = {
        streams,
        chunks,
        intervalMs,
        rampMs,
        completed,
        seconds: Math.round(tookS * 10) / 10,
        worstGapBeyondUpstreamMs: Math.round((worstGap - intervalMs) * 10) / 10,
        p99GapBeyondUpstreamMs: Math.round(
          ((gaps[Math.floor(gaps.length * 0.99)] ?? NaN) - intervalMs) * 10,
        ) / 10,
        rssMb: { idle: Math.round(idle), peak: Math.round(peak), after: Math.round(after) },
        bytesPerOpenStream: Math.round((peak - idle) * 1024 * 1024 / streams),
        errors: errors.slice(0, 5),
        lowered,
      };
      console.log(JSON.stringify(result, null, 2));
      if (completed < streams) problems.push(`${streams - completed} streams did not complete`);
    } finally {
      const code = await gateway.stop(30_000);
      if (code !== 0) problems.push(`main.ts exited with ${code}`);
    }
    const file = new URL("../results/streams.json", import.meta.url);
    await Deno.mkdir(new URL("../results/", import.meta.url), { recursive: true });
    await Deno.writeTextFile(
      file,
      JSON.stringify(
        {
          finishedAt: new Date().toISOString(),
          machine: await describeMachine(),
          result,
          problems,
        },
        null,
        2,
      ) + "\n",
    );
    console.log(`wrote ${file.pathname}`);
  } finally {
    await upstream.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  if (problems.length > 0) console.log(`Problems:\n  ${problems.join("\n  ")}`);
  return problems.length > 0 ? 1 : 0;
}
