/**
 * Where the streams bench sends its streams: through gatehouse (the real `main.ts`: SQLite,
 * metrics on, no request log), through the minimal Deno proxy (or `js_proxy.ts`, the same through
 * JavaScript and gatehouse's HTTP/1.1 client), or straight to the fake upstream.
 * The proxy and direct runs tell what the machine itself does with the same load: its two cores
 * are shared by the bench's readers, the fake upstream and the process in between.
 * @module
 */
import { BENCH_KEY_ENV, BENCH_UPSTREAM_KEY, benchCatalog } from "../bench_catalog.ts";
import { createBenchKey } from "../scale/admin_api.ts";
import { MAIN_FLAGS, parseStartup } from "../scale/gateway_process.ts";
import { spawnDeno, type Spawned } from "./spawn.ts";

/** The process the streams pass through: gatehouse, the minimal `fetch` proxy, the JavaScript
 * proxy over gatehouse's HTTP/1.1 client (`js_proxy.ts`), or none. */
export type TargetName = "gatehouse" | "proxy" | "jsproxy" | "direct";

/** The target names, for the argument. */
export const TARGET_NAMES: readonly TargetName[] = ["gatehouse", "proxy", "jsproxy", "direct"];

/** A started target: where the streams go, and the process whose memory is the figure. */
export interface Target {
  name: TargetName;
  /** `…/v1/chat/completions` of the process the bench talks to. */
  url: string;
  /** The `authorization` header value the streams send, or null. */
  authorization: string | null;
  /** The process measured: the gateway, the proxy, or (direct) the fake upstream itself. */
  measured: Spawned;
  /** Every process of the run, the measured one among them (the upstream first). */
  processes: Spawned[];
  /** Open files the measured process holds per stream (a client and an upstream socket). */
  filesPerStream: number;
  stop(): Promise<string[]>;
}

/** Runtime flags for every child: `--inspect` on a free port when the run looks inside. */
function flagsFor(inspect: boolean): string[] {
  return inspect ? ["--inspect=127.0.0.1:0"] : [];
}

/** Starts the fake upstream and `name` in front of it. `v8Flags` go to the measured process. */
export async function startTarget(
  name: TargetName,
  dir: string,
  options: { inspect: boolean; v8Flags: string | null; env: Record<string, string> },
): Promise<Target> {
  const inspect = flagsFor(options.inspect);
  const v8: Record<string, string> = options.v8Flags === null
    ? {}
    : { DENO_V8_FLAGS: options.v8Flags };
  const path = "/v1/chat/completions";
  const upstream = await spawnDeno(
    ["-A", ...(name === "direct" ? inspect : [])],
    "bench/fake_upstream.ts",
    [],
    name === "direct" ? v8 : {},
  );
  const stops: Spawned[] = [upstream];
  const stop = async () => {
    const problems: string[] = [];
    for (const process of stops.reverse()) {
      const code = await process.stop(30_000);
      if (code !== 0) problems.push(`${name}'s process exited with ${code}`);
    }
    return problems;
  };
  try {
    if (name === "direct") {
      return {
        name,
        url: upstream.url + path,
        authorization: null,
        measured: upstream,
        processes: [upstream],
        filesPerStream: 1,
        stop,
      };
    }
    if (name === "proxy" || name === "jsproxy") {
      const script = name === "proxy" ? "bench/minimal_proxy.ts" : "bench/streams/js_proxy.ts";
      const proxy = await spawnDeno(["-A", ...inspect], script, [upstream.url], v8);
      stops.push(proxy);
      return {
        name,
        url: proxy.url + path,
        authorization: null,
        measured: proxy,
        processes: [upstream, proxy],
        filesPerStream: 2,
        stop,
      };
    }
    if (name !== "gatehouse") throw new Error(`unknown target ${name}`);
    const catalog = `${dir}/catalog.json`;
    await Deno.writeTextFile(catalog, JSON.stringify(benchCatalog(upstream.url)));
    const gateway = await spawnDeno([...MAIN_FLAGS, ...inspect], "main.ts", [], {
      PORT: "0",
      HOST: "127.0.0.1",
      DOCS_PORT: "off",
      GATEHOUSE_QUIET: "1",
      GATEHOUSE_CONFIG: catalog,
      GATEHOUSE_DB: `${dir}/gatehouse.db`,
      [BENCH_KEY_ENV]: BENCH_UPSTREAM_KEY,
      ...v8,
      ...options.env,
    }, true);
    stops.push(gateway);
    const adminKey = parseStartup(gateway.output())?.adminKey;
    if (!adminKey) throw new Error(`main.ts printed no admin key:\n${gateway.output()}`);
    const key = await createBenchKey(gateway.url, adminKey, false);
    return {
      name,
      url: gateway.url + path,
      authorization: `Bearer ${key}`,
      measured: gateway,
      processes: [upstream, gateway],
      filesPerStream: 2,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
