/**
 * The attempt's clocks, end to end: the connect timeout and the header timeout fail one attempt
 * (retried); a stream silent past the idle timeout after its first chunk ends with the client's
 * terminal error (outcome `timeout`, upstream closed, what was seen billed), before its first
 * chunk it is retried; a slow stream that keeps producing is never cut. A client that leaves
 * while the gateway waits to retry ends the request there.
 */
import assert from "node:assert/strict";
import { readStream } from "../governance/gov_kit.ts";
import { status } from "./fault_upstream.ts";
import { type Rig, ROUTES, sleep, startRig } from "./reliability_rig.ts";

const IDLE_MS = 400;
const rig: Rig = await startRig({
  GATEHOUSE_RETRIES: "2",
  GATEHOUSE_CONNECT_TIMEOUT_MS: "200",
  GATEHOUSE_UPSTREAM_TIMEOUT_MS: "300",
  GATEHOUSE_STREAM_IDLE_TIMEOUT_MS: String(IDLE_MS),
});

/** Waits until `done()` (at most 3 s). */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 3000; waited += 10) await sleep(10);
  assert.ok(done(), "in time");
}

Deno.test("a TLS handshake that never completes: connect_timeout, then the other deployment", async () => {
  rig.reset();
  const response = await rig.send("chat", "gpt-silent");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("x-gatehouse-served-model"), "gpt-silent");
  await response.body?.cancel();
  const row = await rig.row(response);
  assert.deepEqual(row.attemptLog?.map((a) => [a.deployment, a.status, a.result]), [
    ["gpt-silent@silent", 0, "connect_timeout"],
    ["gpt-silent@openai-b", 200, "ok"],
  ]);
  const waited = row.attemptLog![0]!.ms;
  assert.ok(waited >= 190 && waited < 290, `the connect timeout took ${waited} ms`);
  assert.ok(rig.silent.accepted >= 1, "the TCP connection was made");
  assert.equal(rig.b.requests.length, 1);
});

Deno.test("headers slower than the header timeout: header_timeout, retried", async () => {
  rig.reset();
  rig.a.push({ slowMs: 700 });
  const response = await rig.send("messages", "gpt-a", { stream: true });
  assert.equal((await readStream("messages", response)).ending, "clean");
  const row = await rig.row(response);
  assert.deepEqual(row.attemptLog?.map((a) => a.result), ["header_timeout", "ok"]);
  assert.ok(row.attemptLog![0]!.ms >= 300 && row.attemptLog![0]!.ms < 500);
  await until(() => rig.a.aborted === 1);
});

Deno.test("headers slower than usual but within the header timeout: one attempt", async () => {
  rig.reset();
  rig.a.push({ slowMs: 150 });
  const response = await rig.send("chat", "gpt-a");
  assert.equal(response.status, 200);
  await response.body?.cancel();
  const row = await rig.row(response);
  assert.equal(row.attempts, 1);
  assert.equal(row.outcome, "ok");
});

for (const route of ROUTES) {
  Deno.test(`${route.name}: silent past the idle timeout after the first chunk → timeout`, async () => {
    rig.reset();
    const fake = rig.fakeOf(route);
    fake.push("stall");
    const started = Date.now();
    const response = await rig.send(route.wire, route.model, { stream: true });
    assert.equal(response.status, 200);
    const read = await readStream(route.wire, response);
    assert.ok(Date.now() - started >= IDLE_MS, "ended by the idle timeout");
    assert.equal(read.ending, "error", "the client's own terminal error");
    assert.match(read.errorMessage ?? "", /sent nothing for 0.4 s mid-stream/);
    const row = await rig.row(response);
    assert.equal(row.outcome, "timeout");
    assert.equal(row.attempts, 1, "not retried: the answer had begun");
    assert.equal(fake.requests.length, 1);
    await until(() => fake.aborted === 1);
    if (route.upstream === "claude") {
      // Anthropic's message_start came before the silence: its input tokens are billed.
      assert.ok(row.inputTokens > 0 && row.cost > 0, JSON.stringify(row));
    }
  });
}

for (const route of [ROUTES[1]!, ROUTES[4]!]) {
  Deno.test(`${route.name}: silent before the first chunk → retried`, async () => {
    rig.reset();
    const fake = rig.fakeOf(route);
    fake.push("silent_body");
    const response = await rig.send(route.wire, route.model, { stream: true });
    assert.equal((await readStream(route.wire, response)).ending, "clean");
    const row = await rig.row(response);
    assert.equal(row.outcome, "ok");
    assert.deepEqual(row.attemptLog?.map((a) => [a.status, a.result]), [[200, "cut"], [200, "ok"]]);
    assert.ok(row.attemptLog![0]!.ms >= IDLE_MS - 50, "ended by the idle timeout");
    await until(() => fake.aborted === 1);
  });
}

for (const route of [ROUTES[0]!, ROUTES[5]!]) {
  Deno.test(`${route.name}: a stream producing every 100 ms is never cut`, async () => {
    rig.reset();
    const fake = rig.fakeOf(route);
    fake.push("drip");
    const started = Date.now();
    const response = await rig.send(route.wire, route.model, { stream: true });
    const read = await readStream(route.wire, response);
    assert.ok(Date.now() - started > IDLE_MS + 100, `ran ${Date.now() - started} ms`);
    assert.equal(read.ending, "clean");
    assert.match(read.text, /You said: Hi/);
    const row = await rig.row(response);
    assert.equal(row.outcome, "ok");
    assert.equal(row.attempts, 1);
  });
}

// A whole (not streamed) answer whose body goes silent after its headers: the header timeout ends
// at the headers and the idle timeout watches streams only, so nothing bounds this read and the
// request hangs until its client leaves. Nothing has reached the client: like a stream silent
// before its first chunk, it should end after the idle timeout and be retried.
Deno.test("a whole JSON body silent after its headers is given up and retried", async () => {
  rig.reset();
  rig.a.push("stall");
  const before = rig.h.rows.length;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 3000);
  try {
    const response = await rig.send("chat", "gpt-a", {}, controller.signal).catch(() => null);
    assert.ok(response, "no answer within 3 s: the silent body was never given up");
    assert.equal(response.status, 200);
    await response.body?.cancel();
    assert.equal((await rig.row(response)).attempts, 2);
  } finally {
    clearTimeout(timer);
    await until(() => rig.h.rows.length > before);
  }
});

const LEAVERS = [
  { wire: "chat", stream: false, fault: status(429, { "retry-after": "5" }) },
  { wire: "messages", stream: true, fault: status(503, { "retry-after-ms": "5000" }) },
] as const;

for (const c of LEAVERS) {
  Deno.test(`${c.wire}: a client leaving during the wait before a retry ends the request`, async () => {
    rig.reset();
    rig.a.push(c.fault);
    const before = rig.h.rows.length;
    const controller = new AbortController();
    const sent = rig.send(c.wire, "gpt-a", { stream: c.stream }, controller.signal);
    await sleep(200);
    controller.abort();
    await assert.rejects(sent);
    await until(() => rig.h.rows.length > before);
    const row = rig.h.rows[before]!;
    assert.equal(row.outcome, "client_disconnect");
    assert.equal(row.attempts, 1);
    await sleep(300);
    assert.equal(rig.h.rows.length, before + 1, "one row");
    assert.equal(rig.a.requests.length, 1, "no further upstream request");
  });
}

Deno.test("timeouts: close", async () => {
  await rig.close();
});
