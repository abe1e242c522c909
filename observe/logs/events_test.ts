import assert from "node:assert/strict";
import { DeploymentHealth } from "../../gateway/health.ts";
import { consoleLogger, memoryLogger } from "../../gateway/log.ts";
import { healthText, lifecycleLog, logHealthChanges } from "./events.ts";
import { memorySink } from "./sink.ts";

/** A breaker on a clock the test moves, logging JSON lines to memory. */
function watched(options: { quiet?: boolean } = {}) {
  let now = Date.parse("2026-11-26T13:00:00.000Z");
  const health = new DeploymentHealth({ cooldownMs: 30_000, failures: 2, now: () => now });
  const sink = memorySink();
  logHealthChanges(health, consoleLogger({ format: "json", sink, quiet: options.quiet }));
  const lines = () =>
    sink.lines.map((line) => {
      const { time: _, ...rest } = JSON.parse(line);
      return rest;
    });
  return { health, lines, advance: (ms: number) => now += ms };
}

/** One failed attempt on `id` (a provider message that must not reach the line). */
function fail(health: DeploymentHealth, id: string, coolForMs?: number) {
  const ticket = health.begin(id);
  ticket.failed("retryable_status: overloaded, your prompt was SECRET-PROMPT", coolForMs);
  ticket.done();
}

Deno.test("deployment health lines: cooling (why, until), probing, healthy again", () => {
  const { health, lines, advance } = watched({ quiet: true });
  fail(health, "gpt-5@openai");
  assert.deepEqual(lines(), [], "one failure is not a change");
  fail(health, "gpt-5@openai");
  advance(30_000);
  assert.equal(health.usable("gpt-5@openai"), true, "the cool-down is over: a probe may go");
  const probe = health.begin("gpt-5@openai");
  probe.succeeded();
  probe.done();
  assert.deepEqual(lines(), [
    {
      level: "warn",
      event: "deployment_health",
      message: "deployment health changed",
      deployment: "gpt-5@openai",
      from: "healthy",
      to: "cooling",
      reason: "failures",
      error: "retryable_status",
      until: "2026-11-26T13:00:30.000Z",
      consecutiveFailures: 2,
    },
    {
      level: "info",
      event: "deployment_health",
      message: "deployment health changed",
      deployment: "gpt-5@openai",
      from: "cooling",
      to: "probing",
      reason: "cooldown_over",
      consecutiveFailures: 2,
    },
    {
      level: "info",
      event: "deployment_health",
      message: "deployment health changed",
      deployment: "gpt-5@openai",
      from: "probing",
      to: "healthy",
      reason: "probe_succeeded",
      consecutiveFailures: 0,
    },
  ], "written even when quiet (lifecycle events are not info chatter)");
  assert.ok(!JSON.stringify(lines()).includes("SECRET-PROMPT"), "never the provider's message");
});

Deno.test("deployment health lines: a retry-after cools at once; a failed probe cools again", () => {
  const { health, lines, advance } = watched();
  fail(health, "claude@anthropic", 5_000);
  advance(5_000);
  assert.equal(health.usable("claude@anthropic"), true);
  fail(health, "gpt@openai");
  fail(health, "gpt@openai");
  advance(30_000);
  health.usable("gpt@openai");
  fail(health, "gpt@openai");
  assert.deepEqual(lines().map((l) => [l.deployment, l.from, l.to, l.reason]), [
    ["claude@anthropic", "healthy", "cooling", "retry_after"],
    ["claude@anthropic", "cooling", "healthy", "cooldown_over"],
    ["gpt@openai", "healthy", "cooling", "failures"],
    ["gpt@openai", "cooling", "probing", "cooldown_over"],
    ["gpt@openai", "probing", "cooling", "probe_failed"],
  ]);
});

Deno.test("deployment health text line and memory logger", () => {
  assert.equal(
    healthText({
      deployment: "gpt-5@openai",
      from: "healthy",
      to: "cooling",
      reason: "failures",
      error: "retryable_status",
      until: Date.parse("2026-11-26T13:00:30.000Z"),
      consecutiveFailures: 3,
    }),
    "deployment gpt-5@openai healthy -> cooling until 2026-11-26T13:00:30.000Z " +
      "(failures: retryable_status, 3 in a row)",
  );
  const health = new DeploymentHealth({ cooldownMs: 1_000, failures: 1 });
  const log = memoryLogger();
  logHealthChanges(health, log);
  fail(health, "x@y");
  assert.deepEqual(log.lines.map((l) => [l.level, l.message, l.fields?.to]), [
    ["warn", "deployment health changed", "cooling"],
  ]);
});

Deno.test("lifecycle lines on stdout: JSON events in json mode, the plain text otherwise", () => {
  const sink = memorySink();
  const printed: string[] = [];
  const original = console.log;
  console.log = (line: string) => printed.push(line);
  try {
    const json = lifecycleLog(
      consoleLogger({ format: "json", sink, quiet: true, fields: { worker: 2 } }),
      2,
    );
    json("gatehouse draining: 0 requests in flight, up to 30 s", {
      event: "drain",
      fields: { inFlight: 0 },
    });
    json("something else");
    lifecycleLog(consoleLogger({ sink }), 2)("gatehouse stopped (exit 0)");
    lifecycleLog(memoryLogger(), 0)("gatehouse stopped (exit 0)");
  } finally {
    console.log = original;
  }
  assert.deepEqual(sink.lines, [], "not on the log sink");
  const [drain, other, ...text] = printed;
  assert.deepEqual({ ...JSON.parse(drain!), time: 0 }, {
    time: 0,
    level: "info",
    event: "drain",
    message: "gatehouse draining: 0 requests in flight, up to 30 s",
    inFlight: 0,
    worker: 2,
  });
  assert.equal(JSON.parse(other!).event, "notice");
  assert.deepEqual(text, ["[worker 2] gatehouse stopped (exit 0)", "gatehouse stopped (exit 0)"]);
});
