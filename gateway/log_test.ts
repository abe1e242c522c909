import assert from "node:assert/strict";
import { consoleLogger, isConsoleLogger, loggerFromEnv, memoryLogger } from "./log.ts";
import { memorySink } from "../observe/logs/sink.ts";

const strip = (line: string) => line.replace(/^\S+ /, "");

Deno.test("console logger, text: readable lines; quiet drops info but not warnings or events", () => {
  const sink = memorySink();
  const log = consoleLogger({ sink, quiet: true });
  log.info("dropped", { a: 1 });
  log.warn("upstream attempt failed", { requestId: "req_1", status: 529, error: "over loaded" });
  log.error("ledger write failed", { requestId: "req_2" });
  log.event("info", "start", "gatehouse listening on http://127.0.0.1:8080", { workers: 1 });
  assert.deepEqual(sink.lines.map(strip), [
    'WARN upstream attempt failed requestId=req_1 status=529 error="over loaded"',
    "ERROR ledger write failed requestId=req_2",
    "INFO gatehouse listening on http://127.0.0.1:8080 workers=1",
  ]);
  assert.match(sink.lines[0]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z WARN /);
});

Deno.test("console logger, json: one object per line with time, level, message, fields", () => {
  const sink = memorySink();
  const log = consoleLogger({ sink, format: "json", fields: { worker: 1 } });
  log.info("limits: shared", { redis: "127.0.0.1:6379" });
  log.event("warn", "drain", "gatehouse draining", { inFlight: 2 });
  const [info, event] = sink.lines.map((line) => JSON.parse(line));
  assert.equal(typeof info.time, "string");
  assert.deepEqual({ ...info, time: 0 }, {
    time: 0,
    level: "info",
    message: "limits: shared",
    redis: "127.0.0.1:6379",
    worker: 1,
  });
  assert.deepEqual({ ...event, time: 0 }, {
    time: 0,
    level: "warn",
    event: "drain",
    message: "gatehouse draining",
    inFlight: 2,
    worker: 1,
  });
});

Deno.test("console logger: a secret passed by mistake is redacted in either format", () => {
  for (const format of ["text", "json"] as const) {
    const sink = memorySink();
    consoleLogger({ sink, format }).error("oops", {
      header: "Bearer gth_abcdefghij_secretsecretsecret",
      upstreamKey: "sk-upstream-openai",
    });
    assert.ok(!/gth_abcdefghij_secret|sk-upstream-openai/.test(sink.lines[0]!), sink.lines[0]);
  }
});

Deno.test("loggerFromEnv: format and quiet from the environment; a bad format refuses", () => {
  const log = loggerFromEnv((name) =>
    ({ GATEHOUSE_LOG_FORMAT: "json", GATEHOUSE_QUIET: "1" })[name]
  );
  assert.equal(log.format, "json");
  assert.equal(log.quiet, true);
  assert.equal(loggerFromEnv(() => undefined).format, "text");
  assert.throws(
    () => loggerFromEnv((name) => name === "GATEHOUSE_LOG_FORMAT" ? "yaml" : undefined),
    {
      message: 'GATEHOUSE_LOG_FORMAT="yaml" is not one of: text, json.',
    },
  );
  assert.equal(isConsoleLogger(log), true);
  assert.equal(isConsoleLogger(memoryLogger()), false);
});
