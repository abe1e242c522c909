/**
 * Portkey's open-source gateway as a bench target, the comparison issue #19's table starts from:
 * `@portkey-ai/gateway` at {@link PORTKEY_VERSION}, installed with npm into `bench/.portkey` on
 * first use and run with Node (`start-server.js --port=N --headless`, `NODE_ENV=production`),
 * routed to the fake upstream by its own headers (`x-portkey-provider`,
 * `x-portkey-custom-host`). It runs the JSON passthrough scenarios only: this version on Node 20
 * answers a streamed chat request with HTTP 500 (a `TypeError: immutable` thrown in its own
 * `updateHeaders`). When Node or npm is missing, or the install fails, the bench says so and
 * measures the rest.
 * @module
 */
import { fileURLToPath } from "node:url";
import type { ChildServer } from "./processes.ts";
import { runCommand as run } from "./command.ts";

/** The version measured (the one in issue #19's table). */
export const PORTKEY_VERSION = "1.15.2";

/** Where it is installed. */
export const PORTKEY_DIR = fileURLToPath(new URL("./.portkey/", import.meta.url));

const SCRIPT = "node_modules/@portkey-ai/gateway/build/start-server.js";

/** Portkey's headers that send a request of `provider`'s wire to the fake upstream at
 * `upstreamUrl` (its `custom_host` is the API's base, `/v1` included). */
export function portkeyHeaders(
  provider: "openai" | "anthropic",
  upstreamUrl: string,
): Record<string, string> {
  return { "x-portkey-provider": provider, "x-portkey-custom-host": `${upstreamUrl}/v1` };
}

/** Why Node cannot run Portkey, or null when it can. A `node` missing from PATH is answered by
 * Deno itself inside a Deno process (its Node compatibility), so the version must be Node's. */
async function nodeMissing(): Promise<string | null> {
  const version = await run("node", ["--version"]);
  if ("failed" in version) return version.failed;
  return /^v\d+\./.test(version.stdout) ? null : "node is not installed";
}

/** The path of Portkey's start script, installing it first when absent; or why it cannot run. */
export async function installPortkey(
  dir = PORTKEY_DIR,
): Promise<{ script: string } | { skipped: string }> {
  const script = `${dir}${SCRIPT}`;
  const node = await nodeMissing();
  if (node !== null) return { skipped: `Portkey needs Node: ${node} (apt-get install nodejs npm)` };
  try {
    await Deno.stat(script);
    return { script };
  } catch {
    // not installed yet
  }
  console.log(`installing @portkey-ai/gateway@${PORTKEY_VERSION} into ${dir} (npm)`);
  await Deno.mkdir(dir, { recursive: true });
  const installed = await run("npm", [
    "install",
    "--prefix",
    dir,
    "--no-audit",
    "--no-fund",
    "--no-save",
    `@portkey-ai/gateway@${PORTKEY_VERSION}`,
  ]);
  if ("failed" in installed) {
    return { skipped: `npm install @portkey-ai/gateway failed: ${installed.failed}` };
  }
  return { script };
}

/** A port free now (the kernel's pick; released for the child to take). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** Starts Portkey from `script` and waits until it answers `GET /` (20 s at most). */
export async function startPortkey(script: string): Promise<ChildServer> {
  const port = freePort();
  const child = new Deno.Command("node", {
    args: [script, `--port=${port}`, "--headless"],
    env: { NODE_ENV: "production" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  (async () => {
    for await (const text of child.stderr.pipeThrough(new TextDecoderStream())) stderr += text;
  })().catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already gone
    }
    await child.status;
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/`);
      await response.body?.cancel();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Portkey did not answer on ${url} within 20 s.\n${stderr.slice(-600)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    name: `Portkey ${PORTKEY_VERSION}`,
    pid: child.pid,
    url,
    announcement: { port },
    stderr: () => stderr,
    stdout: () => "",
    send: () => Promise.resolve(),
    stop,
  };
}
