/**
 * A live gateway (demo catalog) and a live docs host in front of it, a temporary HOME, and a
 * runner for the served set-up script — what the docs and set-up tests share.
 * @module
 */
import { createDocsApp, type DocsOptions } from "../../docs/mod.ts";
import { type Harness, listen, makeHarness } from "../harness.ts";

/** Debian's Chromium, which the browser tests drive through playwright-core. */
export const CHROMIUM = "/usr/bin/chromium";

/** Whether {@link CHROMIUM} is installed (the browser tests are ignored without it). */
export const chromiumPresent = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();

/** The suffix a browser test's name takes when it is ignored: why, and how to enable it. */
export const chromiumSkipped = chromiumPresent
  ? ""
  : ` (skipped: ${CHROMIUM} is not installed; enable with: apt-get install -y chromium)`;

/** A gateway, its docs host, and a temporary HOME. */
export interface DocsEnv {
  harness: Harness;
  /** The gateway root. */
  api: string;
  /** The docs host. */
  docs: string;
  key: string;
  home: string;
  /** Runs the served `gatehouse-setup.mjs` with `node` (or `deno`) in `home`. */
  run(args: string[], options?: RunOptions): Promise<ScriptRun>;
  /** Fetches a served script's text from the docs host. */
  served(name: string): Promise<string>;
  close(): Promise<void>;
}

/** How a script runs. */
export interface RunOptions {
  runtime?: "node" | "deno";
  /** Extra environment (HOME and PATH are always set). */
  env?: Record<string, string>;
  stdin?: string;
}

/** What a script run printed. */
export interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Starts the gateway and the docs host; `docs` options override the addresses. */
export async function startDocsEnv(
  docs: Partial<Omit<DocsOptions, "document" | "catalog">> = {},
): Promise<DocsEnv> {
  const harness = await makeHarness();
  const gateway = listen(harness);
  const document = await (await harness.request("/openapi.json")).json();
  // The docs host's own address is known once it listens; the app is built right after.
  let handler: (request: Request) => Response | Promise<Response> = () => new Response(null);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => handler(request),
  );
  const docsUrl = `http://127.0.0.1:${server.addr.port}`;
  const app = createDocsApp({
    document: () => document,
    catalog: harness.deps.catalog,
    publicBaseUrl: docs.publicBaseUrl ?? gateway.url,
    docsUrl: docs.docsUrl ?? docsUrl,
    altBaseUrl: docs.altBaseUrl ?? null,
    altActive: docs.altActive ?? false,
  });
  handler = app.fetch;
  const home = await Deno.makeTempDir({ prefix: "gatehouse-home-" });
  const scriptDir = await Deno.makeTempDir({ prefix: "gatehouse-script-" });
  const scriptPath = `${scriptDir}/gatehouse-setup.mjs`;
  let written = false;
  const served = async (name: string) => {
    const response = await fetch(`${docsUrl}/setup/${name}`);
    if (!response.ok) throw new Error(`GET /setup/${name}: ${response.status}`);
    return await response.text();
  };
  return {
    harness,
    api: gateway.url,
    docs: docsUrl,
    key: harness.key,
    home,
    served,
    async run(args, options = {}) {
      if (!written) {
        await Deno.writeTextFile(scriptPath, await served("gatehouse-setup.mjs"));
        written = true;
      }
      const runtime = options.runtime ?? "node";
      const command = runtime === "node" ? "node" : "deno";
      const prefix = runtime === "node"
        ? []
        : ["run", "--allow-read", "--allow-write", "--allow-env", "--allow-net", "--allow-sys"];
      // Deno's own cache stays out of the HOME under test. Also for `node`: on a machine without
      // Node, Deno runs a spawned `node` itself, and would cache under HOME.
      const denoEnv = { DENO_DIR: `${scriptDir}/deno-dir`, DENO_NO_UPDATE_CHECK: "1" };
      return await runCommand(command, [...prefix, scriptPath, ...args], {
        env: { HOME: home, ...denoEnv, ...options.env },
        stdin: options.stdin,
        cwd: home,
      });
    },
    async close() {
      await server.shutdown();
      await gateway.close();
      await harness.close();
      await Deno.remove(home, { recursive: true });
      await Deno.remove(scriptDir, { recursive: true });
    },
  };
}

/** Runs a command with exactly `env` plus PATH, feeding `stdin` when given. */
export async function runCommand(
  command: string,
  args: string[],
  options: { env: Record<string, string>; stdin?: string; cwd?: string },
): Promise<ScriptRun> {
  const child = new Deno.Command(command, {
    args,
    cwd: options.cwd,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Every file under `dir` (relative path → text and mode), for before/after comparisons. */
export async function snapshot(dir: string): Promise<Map<string, { text: string; mode: number }>> {
  const out = new Map<string, { text: string; mode: number }>();
  const walk = async (path: string, relative: string) => {
    for await (const entry of Deno.readDir(path)) {
      const full = `${path}/${entry.name}`;
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory) await walk(full, rel);
      else {out.set(rel, {
          text: await Deno.readTextFile(full),
          mode: Deno.statSync(full).mode! & 0o777,
        });}
    }
  };
  await walk(dir, "");
  return out;
}

/** The backups beside a file. */
export function backupsOf(file: string): string[] {
  const dir = file.slice(0, file.lastIndexOf("/"));
  const name = file.slice(file.lastIndexOf("/") + 1);
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
      n.startsWith(`${name}.gatehouse-backup-`)
    );
  } catch {
    return [];
  }
}

/** Rendered HTML with whitespace runs collapsed and none between tags, so that assertions do not
 * depend on how `deno fmt` lays out the page templates. */
export function squash(html: string): string {
  return html.replace(/\s+/g, " ").replace(/>\s+</g, "><");
}
