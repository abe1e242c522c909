/**
 * The deployment breaker, end to end: GATEHOUSE_COOLDOWN_FAILURES retryable failures in a row
 * cool a deployment (no traffic; a model with no other deployment is refused with 503
 * `no_healthy_deployment`), the cool-down ends in exactly one probe, whose answer heals it or
 * cools it again; a 429's retry-after cools it that long, then it is healthy with no probe. The
 * admin view and `/readyz` show each state. Failures that other answers overtook (slow ones
 * while other requests were answered) do not cool a model's only deployment; concurrent ones
 * that nothing overtook do.
 *
 * One attempt per request (GATEHOUSE_RETRIES=0), so every failure the test provokes is seen.
 */
import assert from "node:assert/strict";
import { envelopeOf } from "../governance/gov_kit.ts";
import { status } from "./fault_upstream.ts";
import { type Rig, sleep, startRig } from "./reliability_rig.ts";

const COOLDOWN_MS = 1000;
const HEADER_TIMEOUT_MS = 1500;
const rig: Rig = await startRig({
  GATEHOUSE_RETRIES: "0",
  GATEHOUSE_UPSTREAM_TIMEOUT_MS: String(HEADER_TIMEOUT_MS),
  GATEHOUSE_COOLDOWN_FAILURES: "3",
  GATEHOUSE_COOLDOWN_SECONDS: String(COOLDOWN_MS / 1000),
});

interface DeploymentView {
  id: string;
  state: "healthy" | "cooling" | "probing";
  in_flight: number;
  consecutive_failures: number;
  cooldown_until: string | null;
  last_error: string | null;
  recent: { requests: number; errors: number };
}

/** `GET /admin/v1/deployments`' entry for `id`. */
async function view(id: string): Promise<DeploymentView> {
  const response = await rig.admin("/admin/v1/deployments");
  assert.equal(response.status, 200);
  const found = (await response.json()).data.find((d: DeploymentView) => d.id === id);
  assert.ok(found, `${id} is listed`);
  return found;
}

/** Sends chat requests for gpt-x until openai-a got `count` requests; their answers' statuses. */
async function sendUntilA(count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 200 && rig.a.requests.length < count; i++) {
    const response = await rig.send("chat", "gpt-x");
    statuses.push(response.status);
    await response.body?.cancel();
  }
  assert.equal(rig.a.requests.length, count);
  return statuses;
}

/** Sends `count` chat requests for gpt-x one after another; all must succeed. */
async function sendOk(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await rig.send("chat", "gpt-x");
    assert.equal(response.status, 200);
    await response.body?.cancel();
  }
}

/** Waits for the end of `id`'s cool-down. */
async function coolDownOver(id: string): Promise<void> {
  const until = (await view(id)).cooldown_until;
  assert.ok(until !== null, `${id} is cooling`);
  await sleep(Math.max(0, Date.parse(until) - Date.now()) + 50);
}

Deno.test("three failures cool a deployment; one probe after the cool-down heals it", async () => {
  rig.reset();
  rig.a.otherwise(status(500));
  const started = Date.now();
  await sendUntilA(3);
  const cooling = await view("gpt-x@openai-a");
  assert.equal(cooling.state, "cooling");
  assert.equal(cooling.consecutive_failures, 3);
  assert.equal(cooling.in_flight, 0);
  assert.match(cooling.last_error ?? "", /HTTP 500/);
  const until = Date.parse(cooling.cooldown_until!);
  assert.ok(until >= started + COOLDOWN_MS && until <= Date.now() + COOLDOWN_MS + 50);
  assert.equal((await view("gpt-x@openai-b")).state, "healthy");

  // Cooling: the other deployment takes every request.
  await sendOk(15);
  assert.equal(rig.a.requests.length, 3);

  // The cool-down over: one probe at a time (a slow one here), the rest elsewhere.
  rig.a.otherwise("ok");
  rig.a.push({ slowMs: 300 });
  await coolDownOver("gpt-x@openai-a");
  assert.equal((await view("gpt-x@openai-a")).state, "probing");
  const burst = Array.from({ length: 10 }, () => rig.send("chat", "gpt-x"));
  await sleep(150);
  const probing = await view("gpt-x@openai-a");
  assert.equal(probing.state, "probing");
  assert.equal(probing.in_flight, 1);
  for (const response of await Promise.all(burst)) {
    assert.equal(response.status, 200);
    await response.body?.cancel();
  }
  assert.equal(rig.a.requests.length, 4, "exactly one probe");

  // The probe answered: healthy, and back to its share of the traffic.
  const healed = await view("gpt-x@openai-a");
  assert.equal(healed.state, "healthy");
  assert.equal(healed.consecutive_failures, 0);
  assert.equal(healed.cooldown_until, null);
  assert.equal(healed.in_flight, 0);
  assert.equal((await view("gpt-x@openai-b")).in_flight, 0);
  await sendOk(20);
  assert.ok(rig.a.requests.length > 4 + 5, `openai-a took ${rig.a.requests.length - 4} of 20`);
});

Deno.test("a failing probe cools the deployment again", async () => {
  rig.reset();
  rig.a.otherwise(status(503));
  await sendUntilA(3);
  await coolDownOver("gpt-x@openai-a");
  assert.equal((await view("gpt-x@openai-a")).state, "probing");
  const statuses = await sendUntilA(4);
  assert.equal(statuses.at(-1), 503, "the probe's failure goes to its client");
  const again = await view("gpt-x@openai-a");
  assert.equal(again.state, "cooling");
  assert.equal(again.consecutive_failures, 4);
  assert.ok(Date.parse(again.cooldown_until!) > Date.now() + COOLDOWN_MS / 2);
  await sendOk(10);
  assert.equal(rig.a.requests.length, 4, "no traffic while cooling again");
});

Deno.test("a one-deployment model cooling down: 503 no_healthy_deployment; /readyz", async () => {
  rig.reset();
  rig.a.otherwise(status(500));
  for (let i = 0; i < 3; i++) {
    const response = await rig.send("chat", "gpt-a");
    assert.equal(response.status, 502);
    await response.body?.cancel();
  }
  for (const wire of ["chat", "messages", "responses"] as const) {
    const response = await rig.send(wire, "gpt-a", { stream: wire === "messages" });
    assert.equal(response.status, 503);
    assert.equal(response.headers.get("retry-after"), "1");
    const error = envelopeOf(wire, await response.json());
    if (wire === "messages") assert.equal(error.type, "overloaded_error");
    else assert.equal(error.code, "no_healthy_deployment");
    assert.match(error.message, /cooling down/);
    const row = await rig.row(response);
    assert.equal(row.attempts, 0);
    assert.equal(row.status, 503);
  }
  assert.equal(rig.a.requests.length, 3, "no request reached the cooling deployment");

  // Ready while another deployment is usable; not ready once every listed one cools.
  const ready = await fetch(`${rig.url}/readyz`);
  assert.equal(ready.status, 200);
  await ready.body?.cancel();
  const health = rig.h.deps.health;
  for (const { deployment, listed } of rig.h.deps.catalog.deployments()) {
    if (!listed || deployment.id === "gpt-a@openai-a") continue;
    for (let i = 0; i < 3; i++) {
      const ticket = health.begin(deployment.id);
      ticket.failed("made to fail by the test");
      ticket.done();
    }
  }
  const unready = await fetch(`${rig.url}/readyz`);
  assert.equal(unready.status, 503);
  const body = await unready.json();
  assert.equal(body.status, "unavailable");
  assert.equal(body.checks.deployments, "none usable");
  assert.ok(
    body.reasons.some((reason: string) => /gpt-a@openai-a is cooling down until/.test(reason)),
    JSON.stringify(body.reasons),
  );
  await sleep(COOLDOWN_MS + 100);
  const back = await fetch(`${rig.url}/readyz`);
  assert.equal(back.status, 200, "probing deployments take a request");
  await back.body?.cancel();
});

Deno.test("a 429 with retry-after 2 cools the deployment about 2 s, then it is healthy", async () => {
  rig.reset();
  rig.a.push(status(429, { "retry-after": "2" }));
  const sent = Date.now();
  const limited = await rig.send("messages", "gpt-a");
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("retry-after"), "2");
  await limited.body?.cancel();
  const cooling = await view("gpt-a@openai-a");
  assert.equal(cooling.state, "cooling");
  const until = Date.parse(cooling.cooldown_until!);
  assert.ok(until >= sent + 1900 && until <= Date.now() + 2100, `${until - sent} ms`);

  const refused = await rig.send("chat", "gpt-a");
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get("retry-after"), "2");
  await refused.body?.cancel();

  await sleep(until - Date.now() + 50);
  assert.equal((await view("gpt-a@openai-a")).state, "healthy", "no probe after a retry-after");
  const served = await rig.send("chat", "gpt-a");
  assert.equal(served.status, 200);
  await served.body?.cancel();
  assert.equal(rig.a.requests.length, 2);
});

/** Sends `count` chat requests for gpt-a at once, each meeting a fake that never answers;
 * returns once all have reached it, with their coming answers. */
async function hanging(count: number): Promise<{ answers: Promise<Response[]> }> {
  rig.a.push(...Array.from({ length: count }, () => "hang" as const));
  const answers = Promise.all(Array.from({ length: count }, () => rig.send("chat", "gpt-a")));
  for (let waited = 0; rig.a.requests.length < count && waited < 3000; waited += 10) {
    await sleep(10);
  }
  assert.equal(rig.a.requests.length, count);
  return { answers };
}

Deno.test("slow failures while other requests are answered do not cool the only deployment", async () => {
  rig.reset();
  const slow = await hanging(3);
  // Answered while the three wait for headers: each of their failures is overtaken.
  for (let i = 0; i < 5; i++) {
    const response = await rig.send("chat", "gpt-a");
    assert.equal(response.status, 200);
    await response.body?.cancel();
  }
  for (const response of await slow.answers) {
    assert.equal(response.status, 504);
    assert.equal((await rig.row(response)).outcome, "timeout");
    await response.body?.cancel();
  }
  const after = await view("gpt-a@openai-a");
  assert.equal(after.state, "healthy");
  assert.equal(after.consecutive_failures, 0);
  assert.equal(after.recent.requests, 8);
  assert.equal(after.recent.errors, 3);
  const next = await rig.send("chat", "gpt-a");
  assert.equal(next.status, 200, "not 503 no_healthy_deployment");
  await next.body?.cancel();
});

Deno.test("concurrent failures that no answer overtook cool the only deployment", async () => {
  rig.reset();
  for (const response of await (await hanging(3)).answers) {
    assert.equal(response.status, 504);
    await response.body?.cancel();
  }
  const after = await view("gpt-a@openai-a");
  assert.equal(after.state, "cooling");
  assert.equal(after.consecutive_failures, 3);
  const refused = await rig.send("chat", "gpt-a");
  assert.equal(refused.status, 503);
  assert.equal((await refused.json()).error.code, "no_healthy_deployment");
  assert.equal(rig.a.requests.length, 3);
});

Deno.test("cooldown: close", async () => {
  await rig.close();
});
