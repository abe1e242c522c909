/**
 * What the lifecycle tells observers (`observe/observer.ts`), end to end over the fault fakes:
 * one observation per request, each attempt reported once when it ended, the settled request
 * with its ledger row, its timings (the upstream's wait and backoff kept out of gatehouse's own
 * overhead), stop reasons, delivery mode and, for a refusal, its code.
 */
import assert from "node:assert/strict";
import type { ResolvedModel } from "../../catalog/catalog.ts";
import {
  combineObservers,
  type Observer,
  type RequestStart,
  type SettledRequest,
} from "../../observe/observer.ts";
import type { AttemptRecord } from "../../store/store.ts";
import { readStream } from "../governance/gov_kit.ts";
import { startRig } from "../reliability/reliability_rig.ts";

interface Seen {
  start: RequestStart;
  attempts: Array<{ deployment: string; attempt: number }>;
  ended: Array<{ record: AttemptRecord; attempt: number }>;
  settled: SettledRequest[];
}

/** An observer that keeps what it is told, per request id. */
function recorder(): Observer & { seen: Map<string, Seen> } {
  const seen = new Map<string, Seen>();
  return {
    seen,
    begin(start) {
      const entry: Seen = { start, attempts: [], ended: [], settled: [] };
      seen.set(start.requestId, entry);
      return {
        attemptStarted(model: ResolvedModel, attempt: number) {
          entry.attempts.push({ deployment: model.deployment.id, attempt });
          return { "x-test-trace": `attempt-${attempt}` };
        },
        attemptEnded(record, attempt) {
          entry.ended.push({ record: { ...record }, attempt });
        },
        settled(request) {
          entry.settled.push(request);
        },
      };
    },
  };
}

const rig = await startRig({ GATEHOUSE_RETRIES: "2", GATEHOUSE_UPSTREAM_TIMEOUT_MS: "2000" });
const observer = recorder();
rig.h.deps.observer = observer;

async function settledOf(response: Response): Promise<Seen> {
  const row = await rig.row(response);
  const seen = observer.seen.get(row.requestId);
  assert.ok(seen, "the request was observed");
  assert.equal(seen.settled.length, 1, "settled once");
  assert.equal(seen.settled[0]!.record, row, "the settled request carries the ledger row");
  return seen;
}

Deno.test("observer: a passthrough answer, its timings and stop reason", async () => {
  rig.reset();
  rig.a.push({ slowMs: 150 });
  const response = await rig.send("chat", "gpt-a", { maxTokens: 64 });
  assert.equal(response.status, 200);
  await response.body?.cancel();
  const seen = await settledOf(response);
  assert.equal(seen.start.route, "/v1/chat/completions");
  assert.equal(seen.start.model, "gpt-a");
  assert.equal(seen.start.stream, false);
  assert.equal(seen.start.maxTokens, 64);
  assert.deepEqual(seen.attempts, [{ deployment: "gpt-a@openai-a", attempt: 1 }]);
  assert.deepEqual(seen.ended.map((e) => [e.attempt, e.record.result]), [[1, "ok"]]);
  const settled = seen.settled[0]!;
  assert.equal(settled.mode, "passthrough");
  assert.deepEqual(settled.finishReasons, ["stop"]);
  assert.equal(settled.refusal, null);
  assert.ok(settled.upstreamMs >= 140, `upstream wait ${settled.upstreamMs} ms holds the 150 ms`);
  assert.ok(settled.overheadMs !== null && settled.overheadMs >= 0);
  assert.ok(settled.overheadMs < 100, `overhead ${settled.overheadMs} ms excludes the upstream`);
  assert.ok(settled.firstByteMs !== null && settled.firstByteMs >= settled.upstreamMs);
  assert.ok(settled.durationMs >= settled.firstByteMs);
  assert.equal(rig.a.requests.length, 1);
});

Deno.test("observer: a translated stream reports its stop reason in gatehouse's terms", async () => {
  rig.reset();
  const response = await rig.send("messages", "gpt-a", { stream: true });
  assert.equal(response.status, 200);
  const read = await readStream("messages", response);
  assert.equal(read.ending, "clean");
  const settled = (await settledOf(response)).settled[0]!;
  assert.equal(settled.mode, "translated");
  assert.deepEqual(settled.finishReasons, ["end_turn"]);
  assert.equal(settled.record.outcome, "ok");
  assert.ok(settled.overheadMs !== null && settled.overheadMs < 100);
});

Deno.test("observer: a retried request reports each attempt once, and backoff is not overhead", async () => {
  rig.reset();
  rig.a.push({ status: 503, headers: { "retry-after-ms": "200" } });
  const response = await rig.send("chat", "gpt-a", { stream: true });
  assert.equal(response.status, 200);
  await readStream("chat", response);
  const seen = await settledOf(response);
  assert.deepEqual(seen.attempts.map((a) => a.attempt), [1, 2]);
  assert.deepEqual(seen.ended.map((e) => [e.attempt, e.record.result, e.record.status]), [
    [1, "retryable_status", 503],
    [2, "ok", 200],
  ]);
  const settled = seen.settled[0]!;
  assert.equal(settled.record.attempts, 2);
  assert.ok(settled.firstByteMs !== null && settled.firstByteMs >= 200, "waited the retry-after");
  assert.ok(settled.overheadMs !== null && settled.overheadMs < 100, `${settled.overheadMs}`);
});

Deno.test("observer: a refusal before any call names its code and has no overhead figure", async () => {
  rig.reset();
  const response = await rig.send("chat", "no-such-model");
  assert.equal(response.status, 404);
  await response.body?.cancel();
  const settled = (await settledOf(response)).settled[0]!;
  assert.equal(settled.record.outcome, "rejected");
  assert.equal(settled.refusal, "model_not_found");
  assert.equal(settled.overheadMs, null);
  assert.equal(settled.mode, null);
});

Deno.test("observer: headers it returns for an attempt reach the upstream call", async () => {
  rig.reset();
  const seenHeaders: string[] = [];
  const original = rig.h.deps.fetch;
  rig.h.deps.fetch = (url, init) => {
    seenHeaders.push(String((init?.headers as Record<string, string>)["x-test-trace"]));
    return original(url, init);
  };
  try {
    const response = await rig.send("chat", "gpt-a");
    await response.body?.cancel();
    await settledOf(response);
  } finally {
    rig.h.deps.fetch = original;
  }
  assert.deepEqual(seenHeaders, ["attempt-1"]);
});

Deno.test("observer: an observer that throws costs the request nothing", async () => {
  rig.reset();
  rig.h.deps.observer = {
    begin: () => ({
      attemptStarted: () => undefined,
      attemptEnded: () => {},
      settled: () => {
        throw new Error("observer broke");
      },
    }),
  };
  try {
    const response = await rig.send("chat", "gpt-a");
    assert.equal(response.status, 200);
    await response.body?.cancel();
    const row = await rig.row(response);
    assert.equal(row.outcome, "ok");
    assert.ok(
      rig.h.logs.some((l) =>
        l.message === "an observer failed" && l.fields?.requestId === row.requestId
      ),
    );
  } finally {
    rig.h.deps.observer = observer;
  }
});

Deno.test("observer: one that throws at begin or at an attempt leaves the request whole", async () => {
  rig.reset();
  const broken = (where: "begin" | "attempt"): Observer => ({
    begin: () => {
      if (where === "begin") throw new Error("begin broke");
      return {
        attemptStarted: () => {
          throw new Error("attempt broke");
        },
        attemptEnded: () => {
          throw new Error("attempt end broke");
        },
        settled: () => {},
      };
    },
  });
  try {
    for (const where of ["begin", "attempt"] as const) {
      rig.h.deps.observer = broken(where);
      const response = await rig.send("chat", "gpt-a");
      assert.equal(response.status, 200, where);
      await response.body?.cancel();
      const row = await rig.row(response);
      assert.equal(row.outcome, "ok", where);
      assert.equal(rig.h.deps.inflight.size, 0, `${where}: nothing left in flight`);
      assert.ok(
        rig.h.logs.some((l) =>
          l.message === "an observer failed" && l.fields?.requestId === row.requestId
        ),
        where,
      );
    }
  } finally {
    rig.h.deps.observer = observer;
  }
});

Deno.test("observer: combined, one that throws costs the others nothing", async () => {
  rig.reset();
  const reported: unknown[] = [];
  const other = recorder();
  rig.h.deps.observer = combineObservers([
    {
      begin: () => ({
        attemptStarted: () => ({ "x-a": "1" }),
        attemptEnded: () => {},
        settled: () => {
          throw new Error("first broke");
        },
      }),
    },
    other,
  ], (error) => reported.push(error));
  try {
    const response = await rig.send("chat", "gpt-a");
    await response.body?.cancel();
    const row = await rig.row(response);
    for (let i = 0; i < 100 && other.seen.get(row.requestId)?.settled.length !== 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(other.seen.get(row.requestId)?.settled.length, 1, "the second still settled");
    assert.equal(reported.length, 1);
  } finally {
    rig.h.deps.observer = observer;
  }
});

Deno.test({
  name: "observer: close the rig",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () => rig.close(),
});
