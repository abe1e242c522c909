import assert from "node:assert/strict";
import type { ResolvedModel } from "../catalog/catalog.ts";
import { GatewayError } from "../core/errors.ts";
import { modelWith } from "../governance/testing.ts";
import { AttemptFailed } from "./attempt_failure.ts";
import { AttemptLog, loggedError } from "./attempt_log.ts";
import { DeploymentHealth } from "./health.ts";
import { memoryLogger } from "./log.ts";

const START = 1_000_000;

/** An attempt log over a breaker (3 failures, 30 s) on a fixed clock. */
function setUp() {
  const health = new DeploymentHealth({ cooldownMs: 30_000, failures: 3, now: () => START });
  const log = memoryLogger();
  return { health, log, attempts: new AttemptLog(health, log, "req_1") };
}

/** `gpt-test` bound to a second deployment on provider `backup`. */
function onBackup(): ResolvedModel {
  const model = modelWith("gpt-test");
  const deployment = { ...model.deployment, id: "gpt-test@backup" };
  deployment.provider = { ...deployment.provider, name: "backup" };
  return { ...model, deployment, provider: deployment.provider };
}

/** A retryable upstream failure with `status`. */
function failure(status = 503, retryAfterMs: number | null = null): AttemptFailed {
  const error = new GatewayError("overloaded", 503, `HTTP ${status}`);
  return new AttemptFailed("retryable_status", status, error, retryAfterMs);
}

Deno.test("AttemptLog: begin records the deployment, provider and model", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  assert.equal(attempts.count, 1);
  assert.deepEqual(attempts.records, [{
    deployment: "gpt-test@mock",
    provider: "mock",
    model: "gpt-test",
    status: 0,
    result: "ok",
    ms: 0,
  }]);
  assert.equal(health.inFlight("gpt-test@mock"), 1);
});

Deno.test("AttemptLog: an answer is recorded and tells the breaker, the ticket held", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.answered(200);
  assert.equal(attempts.records[0]!.status, 200);
  assert.equal(attempts.records[0]!.result, "ok");
  assert.ok(attempts.records[0]!.ms >= 0);
  assert.equal(health.view("gpt-test@mock").recentRequests, 1);
  assert.equal(health.inFlight("gpt-test@mock"), 1, "held until the request settles");
  attempts.settled("ok", "");
  assert.equal(health.inFlight("gpt-test@mock"), 0);
  assert.equal(attempts.records[0]!.result, "ok");
});

Deno.test("AttemptLog: a second answer is ignored", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.answered(200);
  attempts.answered(500);
  assert.equal(attempts.records[0]!.status, 200);
  assert.equal(health.view("gpt-test@mock").recentRequests, 1);
});

Deno.test("AttemptLog: an answer with a client error still counts as the deployment answering", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.answered(400);
  attempts.settled("upstream_error", "bad request");
  const view = health.view("gpt-test@mock");
  assert.equal(view.recentErrors, 0);
  assert.equal(view.consecutiveFailures, 0);
  assert.equal(attempts.records[0]!.status, 400);
  assert.equal(attempts.records[0]!.result, "ok");
});

Deno.test("AttemptLog: a failed attempt is recorded, told to the breaker and released", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.failed(failure(503));
  const record = attempts.records[0]!;
  assert.equal(record.result, "retryable_status");
  assert.equal(record.status, 503);
  const view = health.view("gpt-test@mock");
  assert.equal(view.inFlight, 0);
  assert.equal(view.consecutiveFailures, 1);
  assert.equal(view.recentErrors, 1);
  assert.equal(view.lastError, "retryable_status: HTTP 503");
  assert.equal(view.state, "healthy");
});

Deno.test("AttemptLog: a failed attempt is one warn line", () => {
  const { attempts, log } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.failed(failure(503));
  const warns = log.lines.filter((line) => line.level === "warn");
  assert.equal(warns.length, 1);
  assert.deepEqual(warns[0]!.fields, {
    requestId: "req_1",
    attempt: 1,
    deployment: "gpt-test@mock",
    status: 503,
    result: "retryable_status",
    error: "provider error overloaded",
  });
});

Deno.test("AttemptLog: the warn line names a provider's error by its code, never its words", () => {
  const echoed = new GatewayError("overloaded", 503, "Overloaded while reading: MARKER-PROMPT", {
    code: "overloaded_error",
  });
  assert.equal(
    loggedError(new AttemptFailed("retryable_status", 529, echoed)),
    "provider error overloaded_error",
  );
  const odd = new GatewayError("upstream", 500, "MARKER-PROMPT", { code: "MARKER PROMPT!" });
  assert.equal(loggedError(new AttemptFailed("error_event", 200, odd)), "provider error");
  // Gatehouse's own words are kept: they hold no request text.
  const own = new GatewayError("upstream", 502, "Could not reach provider openai: refused");
  assert.equal(
    loggedError(new AttemptFailed("unreachable", 0, own)),
    "Could not reach provider openai: refused",
  );
});

Deno.test("AttemptLog: a 429's retry-after cools the deployment for that long", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.failed(failure(429, 7_000));
  assert.equal(health.cooldownUntil("gpt-test@mock"), START + 7_000);
  assert.equal(health.usable("gpt-test@mock"), false);
});

Deno.test("AttemptLog: a 503's retry-after cools the deployment too; a failure without one does not", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.failed(failure(503, 7_000));
  assert.equal(health.cooldownUntil("gpt-test@mock"), START + 7_000);
  const other = setUp();
  other.attempts.begin(modelWith("gpt-test"));
  other.attempts.failed(failure(503));
  assert.equal(other.health.cooldownUntil("gpt-test@mock"), null);
  assert.equal(other.health.usable("gpt-test@mock"), true);
});

Deno.test("AttemptLog: each attempt has its record; settling touches only the last", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.failed(failure(502));
  attempts.begin(onBackup());
  attempts.answered(200);
  attempts.settled("ok", "");
  assert.equal(attempts.count, 2);
  assert.deepEqual(
    attempts.records.map((r) => [r.deployment, r.provider, r.status, r.result]),
    [["gpt-test@mock", "mock", 502, "retryable_status"], ["gpt-test@backup", "backup", 200, "ok"]],
  );
  assert.equal(health.inFlight("gpt-test@mock"), 0);
  assert.equal(health.inFlight("gpt-test@backup"), 0);
});

Deno.test("AttemptLog: a new attempt returns the previous attempt's ticket", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.begin(onBackup());
  assert.equal(health.inFlight("gpt-test@mock"), 0);
  assert.equal(health.inFlight("gpt-test@backup"), 1);
});

Deno.test("AttemptLog: settling before an answer records the attempt aborted", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.settled("client_disconnect", "the client left");
  assert.equal(attempts.records[0]!.result, "aborted");
  const view = health.view("gpt-test@mock");
  assert.equal(view.inFlight, 0);
  assert.equal(view.consecutiveFailures, 0, "the client leaving is not the deployment's fault");
  assert.equal(view.recentRequests, 0);
});

Deno.test("AttemptLog: a mid-stream cut after the answer counts against the deployment", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.answered(200);
  attempts.settled("upstream_cut", "the connection broke");
  const view = health.view("gpt-test@mock");
  assert.equal(view.consecutiveFailures, 1);
  assert.equal(view.recentRequests, 1, "one upstream call, which failed");
  assert.equal(view.recentErrors, 1);
  assert.equal(view.lastError, "upstream_cut: the connection broke");
  assert.equal(view.inFlight, 0);
  assert.equal(attempts.records[0]!.result, "ok", "its answer went to the client");
  assert.equal(attempts.records[0]!.status, 200);
});

Deno.test("AttemptLog: a stream gone silent after the answer counts against the deployment", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.answered(200);
  attempts.settled("timeout", "silent for 300000 ms");
  assert.equal(health.view("gpt-test@mock").consecutiveFailures, 1);
});

Deno.test("AttemptLog: other endings after the answer do not count against it", () => {
  for (const outcome of ["ok", "client_disconnect", "budget_cut", "shutdown"] as const) {
    const { attempts, health } = setUp();
    attempts.begin(modelWith("gpt-test"));
    attempts.answered(200);
    attempts.settled(outcome, "ended");
    const view = health.view("gpt-test@mock");
    assert.equal(view.recentErrors, 0, outcome);
    assert.equal(view.inFlight, 0, outcome);
  }
});

Deno.test("AttemptLog: settling after the last attempt failed keeps its record", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.failed(failure(503));
  attempts.settled("upstream_error", "all attempts failed");
  assert.equal(attempts.records[0]!.result, "retryable_status");
  assert.equal(health.view("gpt-test@mock").consecutiveFailures, 1);
});

Deno.test("AttemptLog: settling twice changes nothing more", () => {
  const { attempts, health } = setUp();
  attempts.begin(modelWith("gpt-test"));
  attempts.answered(200);
  attempts.settled("upstream_cut", "cut");
  attempts.settled("upstream_cut", "cut");
  assert.equal(health.view("gpt-test@mock").recentErrors, 1);
  assert.equal(health.inFlight("gpt-test@mock"), 0);
});

Deno.test("AttemptLog: without an attempt, answers and endings are ignored", () => {
  const { attempts, health } = setUp();
  attempts.answered(200);
  attempts.failed(failure());
  attempts.settled("ok", "");
  assert.equal(attempts.count, 0);
  assert.deepEqual(attempts.records, []);
  assert.equal(health.view("gpt-test@mock").recentRequests, 0);
});
