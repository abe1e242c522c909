/**
 * The log formats of a real `main.ts`: with `GATEHOUSE_LOG_FORMAT=json` every line it writes is
 * one JSON object (the start, the drain and the exit on stdout, each request on stderr, in one
 * process and in worker threads, whose lines carry their number); by default the start and shutdown lines stay
 * the plain text they were and request lines are readable text; an unknown format refuses to
 * start, naming the valid ones.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli, send, startGateway } from "../governance/gateway_process.ts";

const chat = JSON.stringify({
  model: "gpt-5",
  max_tokens: 16,
  messages: [{ role: "user", content: "Hi" }],
});

/** A store with one key made by the CLI (so no first-key notice is printed); the key. */
async function storeWithKey(dir: string): Promise<{ db: string; key: string }> {
  const db = join(dir, "gatehouse.db");
  const made = await runCli("keys", ["create", "--name", "log reader"], db);
  assert.equal(made.code, 0, made.stderr);
  return { db, key: made.stdout.trim() };
}

/** Runs a gateway with `env`, sends `requests` chat requests, stops it; its output's lines. */
async function run(env: Record<string, string>, requests: number): Promise<string[]> {
  const dir = await Deno.makeTempDir();
  try {
    const { db, key } = await storeWithKey(dir);
    const gateway = await startGateway(db, { env });
    try {
      for (let i = 0; i < requests; i++) {
        const answer = await send(gateway.url, key, "/v1/chat/completions", {
          method: "POST",
          body: chat,
        });
        assert.equal(answer.status, 200);
      }
    } finally {
      const status = await gateway.stop();
      assert.equal(status.code, 0, gateway.output());
    }
    return gateway.output().split("\n").filter((line) => line.trim() !== "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// deno-lint-ignore no-explicit-any
type Line = Record<string, any>;

Deno.test({
  name: "json format: every line is JSON — start, request lines, drain, exit",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const output = await run({ GATEHOUSE_LOG_FORMAT: "json" }, 2);
    const lines: Line[] = output.map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        assert.fail(`not a JSON line: ${line}`);
      }
    });
    for (const line of lines) {
      assert.match(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(["info", "warn", "error"].includes(line.level), JSON.stringify(line));
      assert.equal(typeof line.message, "string");
      assert.equal(line.worker, undefined, "one process: no worker field");
    }
    // Lifecycle lines are on stdout, request lines on stderr: in order within each.
    const events = lines.map((line) => line.event).filter((event) => event !== undefined);
    assert.deepEqual(events.filter((event) => event !== "request"), [
      "demo",
      "start",
      "drain",
      "exit",
    ]);
    assert.equal(events.filter((event) => event === "request").length, 2);
    const start = lines.find((line) => line.event === "start")!;
    assert.match(start.address, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(start.workers, 1);
    assert.equal(start.storeKind, "sqlite");
    assert.ok(start.modelsListed > 0);
    assert.match(start.message, /^gatehouse listening on /);
    const request = lines.find((line) => line.event === "request")!;
    assert.equal(request.keyName, "log reader");
    assert.equal(request.route, "/v1/chat/completions");
    assert.equal(request.model, "gpt-5");
    assert.equal(request.provider, "mock");
    assert.equal(request.status, 200);
    assert.equal(request.outcome, "ok");
    assert.ok(request.outputTokens > 0 && request.costUsd > 0, JSON.stringify(request));
    assert.equal(request.attempts, 1);
    assert.match(request.userAgent, /Deno/);
    assert.equal(lines.find((line) => line.event === "exit")!.code, 0);
  },
});

Deno.test({
  name: "json format with workers: each worker's lines carry its number",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const output = await run({ GATEHOUSE_LOG_FORMAT: "json", GATEHOUSE_WORKERS: "2" }, 4);
    const lines: Line[] = output.map((line) => JSON.parse(line));
    const start = lines.filter((line) => line.event === "start");
    assert.equal(start.length, 1, "one start line, from the first thread");
    assert.equal(start[0]!.workers, 2);
    const requests = lines.filter((line) => line.event === "request");
    assert.equal(requests.length, 4);
    assert.ok(requests.every((line) => line.worker === 0 || line.worker === 1));
    const exits = lines.filter((line) => line.event === "exit");
    assert.deepEqual(exits.map((line) => line.worker).sort(), [0, 1]);
    assert.ok(lines.filter((line) => line.event === "drain").every((line) => line.worker >= 0));
  },
});

Deno.test({
  name: "text format (default): plain start and shutdown lines, readable request lines",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const output = await run({}, 1);
    assert.ok(
      output.some((line) =>
        /^gatehouse listening on http:\/\/127\.0\.0\.1:\d+ \(workers 1,/.test(line)
      ),
    );
    const request = output.filter((line) => / INFO request req_/.test(line));
    assert.equal(request.length, 1, output.join("\n"));
    assert.match(
      request[0]!,
      /^\d{4}-\d\d-\d\dT[\d:.]+Z INFO request req_\w+ \/v1\/chat\/completions 200 ok key="\w+\/log reader" model=gpt-5 served=gpt-5 provider=mock latency=\d+ms ttfb=\d+ms overhead=[\d.]+ms in=\d+ out=\d+ cached=0 reasoning=0 cost=\$[\d.]+ attempts=1 ua=\S+/,
    );
    assert.ok(
      output.includes("gatehouse draining: 0 requests in flight, up to 30 s"),
      output.join("\n"),
    );
    assert.equal(
      output.filter((line) => line.startsWith("gatehouse")).at(-1),
      "gatehouse stopped (exit 0)",
    );
    assert.ok(output.every((line) => !line.startsWith("{")), "no JSON in text mode");
  },
});

Deno.test("GATEHOUSE_QUIET=1: no request lines (they are info lines)", {
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const output = await run({ GATEHOUSE_LOG_FORMAT: "json", GATEHOUSE_QUIET: "1" }, 1);
  const events = output.map((line) => JSON.parse(line).event);
  assert.ok(!events.includes("request"), output.join("\n"));
  assert.ok(events.includes("start") && events.includes("exit"), "lifecycle lines stay");
});

Deno.test("an unknown GATEHOUSE_LOG_FORMAT refuses to start, naming the valid ones", async () => {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname, "--demo"],
    env: { GATEHOUSE_LOG_FORMAT: "logfmt", GATEHOUSE_DB: ":memory:", PORT: "0", DOCS_PORT: "off" },
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(code, 1);
  assert.equal(
    new TextDecoder().decode(stderr).trim(),
    'gatehouse did not start: GATEHOUSE_LOG_FORMAT="logfmt" is not one of: text, json.',
  );
});
