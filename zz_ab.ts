// A/B: two gateway builds on one fake upstream, alternating load slices; CPU per request from /proc.
// usage: deno run -A zz_ab.ts <rootA> <rootB> <scenario> [slices] [sliceMs]
import { sampleLoad } from "./bench/load.ts";
import { requestHeaders, SCENARIOS } from "./bench/scenarios.ts";
const [rootA, rootB, scenarioId, slicesArg, sliceArg] = Deno.args;
const scenario = SCENARIOS.find((s) => s.id === scenarioId)!;
async function start(root: string, script: string, args: string[], env: Record<string, string> = {}) {
  const child = new Deno.Command("deno", { args: ["run", "-A", script, ...args], cwd: root, stdin: "piped", stdout: "piped", stderr: "null", env }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  for (;;) { const { value, done } = await reader.read(); if (done) throw new Error("exited"); buf += value; const nl = buf.indexOf("\n"); if (nl !== -1) { const a = JSON.parse(buf.slice(0, nl)); (async () => { for (;;) { const r = await reader.read(); if (r.done) return; } })(); return { child, a, pid: child.pid }; } }
}
const MODE = Deno.env.get("CPU") ?? "all";
function cpu(pid: number): number { const f = Deno.readTextFileSync(`/proc/${pid}/stat`); const parts = f.slice(f.lastIndexOf(")") + 2).split(" "); return MODE === "user" ? Number(parts[11]) : MODE === "sys" ? Number(parts[12]) : Number(parts[11]) + Number(parts[12]); }
const up = await start(rootB, "bench/fake_upstream.ts", []);
const upUrl = `http://127.0.0.1:${up.a.port}`;
const gws = [await start(rootA, Deno.env.get("PROXY_A") ? "bench/minimal_proxy.ts" : "bench/gateway_server.ts", [upUrl], { GATEHOUSE_QUIET: "1" }), await start(rootB, "bench/gateway_server.ts", [upUrl], { GATEHOUSE_QUIET: "1" })];
const slices = Number(slicesArg ?? 8), sliceMs = Number(sliceArg ?? 1500);
const tot = [{ ticks: 0, reqs: 0, ms: 0 }, { ticks: 0, reqs: 0, ms: 0 }];
const conc = Number(Deno.env.get("C") ?? 32);
for (let i = 0; i < slices * 2 + 2; i++) {
  const k = i % 2; const g = gws[k]!;
  const spec = { url: `http://127.0.0.1:${g.a.port}${scenario.path}`, headers: requestHeaders(scenario, g.a.key ?? "sk-x"), body: JSON.stringify(scenario.body(g.a.key ? scenario.model : scenario.upstreamModel)), concurrency: conc, maxRequests: 1_000_000, durationMs: sliceMs };
  const c0 = cpu(g.pid); const s = await sampleLoad(spec); const c1 = cpu(g.pid);
  if (i < 2) continue; // warm-up
  tot[k]!.ticks += c1 - c0; tot[k]!.reqs += s.latencies.length; tot[k]!.ms += s.elapsedMs;
  if (s.errors) console.log("errors", s.errors, s.firstError);
}
for (const [k, t] of tot.entries()) console.log(`${k ? "B" : "A"}: ${(t.reqs / t.ms * 1000).toFixed(0)} req/s, ${(t.ticks * 10000 / t.reqs).toFixed(1)} us CPU/request`);
for (const g of [...gws, up]) { g.child.stdin.close(); }
Deno.exit(0);
