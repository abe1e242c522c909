/**
 * With no OTLP endpoint set, no OpenTelemetry code is loaded. Child processes run under an import
 * map in which every `@opentelemetry/*` specifier of `deno.json` leads to a tripwire module that
 * throws when it is evaluated:
 * - an instance's observers (`observe/setup.ts`) start and close cleanly without an endpoint;
 *   with one (the control) tracing reports that the tripwire went off, so the map is in force;
 * - a real `main.ts --demo` gateway starts, answers a model request and shuts down at SIGTERM.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openSqliteStore } from "../../store/sqlite/sqlite_store.ts";
import type { Line } from "./tracing_kit.ts";

const ROOT = new URL("../../", import.meta.url);
const CHILD = new URL("./tracing_lazy_child.ts", import.meta.url).pathname;
const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const TRIPWIRE = "tripwire: an @opentelemetry module was loaded";

/** Writes the tripwire module and the import map that leads every OTel specifier to it. */
async function tripwireMap(dir: string): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
    imports: Record<string, string>;
  };
  const tripwire = join(dir, "tripwire.js");
  await Deno.writeTextFile(tripwire, `throw new Error(${JSON.stringify(TRIPWIRE)});\n`);
  const imports = Object.fromEntries(
    Object.entries(config.imports).map((
      [name, target],
    ) => [name, name.startsWith("@opentelemetry/") ? `file://${tripwire}` : target]),
  );
  assert.ok(Object.keys(imports).some((name) => name.startsWith("@opentelemetry/")));
  const map = join(dir, "import_map.json");
  await Deno.writeTextFile(map, JSON.stringify({ imports }));
  return map;
}

/** `deno run -A --import-map MAP ...args`, in the repository, with this process's environment
 * without its OTEL_* settings, then `env`. */
function command(map: string, args: string[], env: Record<string, string>): Deno.Command {
  const inherited = Object.entries(Deno.env.toObject()).filter(([name]) =>
    !name.startsWith("OTEL_")
  );
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--import-map", map, ...args],
    cwd: ROOT.pathname,
    env: { ...Object.fromEntries(inherited), ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/** Runs the observers' child with `env`; its log lines. */
async function runChild(map: string, env: Record<string, string>): Promise<Line[]> {
  const { code, stdout, stderr } = await command(map, [CHILD], env).output();
  const text = new TextDecoder();
  assert.equal(code, 0, text.decode(stderr));
  return JSON.parse(text.decode(stdout).trim().split("\n").at(-1) ?? "[]") as Line[];
}

Deno.test("tracing: without an endpoint the observers load no @opentelemetry module", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const map = await tripwireMap(dir);
    const quiet = await runChild(map, {});
    assert.ok(!JSON.stringify(quiet).includes("tripwire"), JSON.stringify(quiet));
    assert.ok(!quiet.some((line) => line.message.startsWith("tracing:")));

    const control = await runChild(map, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
    const failed = control.find((line) =>
      line.message === "tracing: could not start; traces are off"
    );
    assert.ok(failed, JSON.stringify(control));
    assert.match(String(failed.fields?.error), /tripwire/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tracing: without an endpoint a gateway process serves with no @opentelemetry module", async () => {
  const dir = await Deno.makeTempDir();
  const dbPath = join(dir, "gatehouse.db");
  try {
    const seed = openSqliteStore(dbPath);
    const { key } = await seed.createKey("lazy");
    await seed.close();
    const child = command(await tripwireMap(dir), [MAIN, "--demo"], {
      GATEHOUSE_DB: dbPath,
      PORT: "0",
      HOST: "127.0.0.1",
      DOCS_PORT: "off",
    }).spawn();
    const errors = new Response(child.stderr).text();
    let seen = "";
    let listening: (port: string) => void = () => {};
    const started = new Promise<string>((resolve) => (listening = resolve));
    // Read to the end, so the child never blocks on a full pipe.
    const drained = (async () => {
      for await (const text of child.stdout.pipeThrough(new TextDecoderStream())) {
        seen += text;
        const port = /listening on http:\/\/[^:\s]+:(\d+)/.exec(seen)?.[1];
        if (port) listening(port);
      }
    })();
    const port = await Promise.race([started, child.status.then(() => null)]);
    if (port === null) assert.fail(`the gateway did not start:\n${seen}\n${await errors}`);
    const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-5", messages: [{ role: "user", content: "Hi" }] }),
    });
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    child.kill("SIGTERM");
    const status = await child.status;
    await drained;
    const stderr = await errors;
    assert.equal(status.code, 0, `${seen}\n${stderr}`);
    assert.ok(!`${seen}${stderr}`.includes("tripwire"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
