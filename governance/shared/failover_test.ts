import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { memoryLogger } from "../../gateway/log.ts";
import { fakeLedger, keyWith, modelWith, requestOf, spentOf } from "../testing.ts";
import { createLimits, type Limits } from "./create_limits.ts";

const model = modelWith();

async function hasRedisServer(): Promise<boolean> {
  try {
    const out = await new Deno.Command("redis-server", { args: ["--version"], stdout: "null" })
      .output();
    return out.success;
  } catch {
    return false;
  }
}

const serverFound = await hasRedisServer();

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function startRedis(port: number): Deno.ChildProcess {
  return new Deno.Command("redis-server", {
    args: [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--requirepass",
      "s3cret",
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function kill(server: Deno.ChildProcess): Promise<void> {
  server.kill("SIGKILL");
  await server.status;
}

Deno.test({
  name: serverFound
    ? "failover: Redis killed → local limits at once; restarted → rejoined; reject mode → 503"
    : "failover [ignored: no redis-server binary on PATH]",
  ignore: !serverFound,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const port = freePort();
    let server = startRedis(port);
    const logs = { local: memoryLogger(), reject: memoryLogger() };
    const url = `redis://:s3cret@127.0.0.1:${port}`;
    const make = (mode: "local" | "reject"): Limits =>
      createLimits({ redisUrl: url, onRedisDown: mode, store: fakeLedger(), log: logs[mode] });
    const local = make("local");
    const reject = make("reject");
    try {
      await until(() => local.state().shared && reject.state().shared);
      const key = keyWith({ rpm: 3 });
      const shared = await local.admitter.admit(requestOf(key, model));
      assert.equal(local.state().backend, "redis");
      await kill(server);
      const started = Date.now();
      const served = await local.admitter.admit(requestOf(key, model));
      assert.ok(Date.now() - started < 1_000, "no hang on a dead Redis");
      assert.equal(local.state().backend, "local");
      assert.equal(local.state().shared, false);
      const warns = logs.local.lines.filter((l) => l.level === "warn");
      assert.equal(warns.length, 1);
      assert.match(
        warns[0]!.message,
        new RegExp(`Redis at 127\\.0\\.0\\.1:${port} is unreachable`),
      );
      // Local limits: a fresh Governor counts from zero (rpm 3).
      await local.admitter.admit(requestOf(key, model));
      await local.admitter.admit(requestOf(key, model));
      await assert.rejects(async () => await local.admitter.admit(requestOf(key, model)), /rpm/);
      served.release(spentOf({}, 0));
      shared.release(spentOf({}, 0)); // taken on Redis: released there (fails, left to its lease)

      const rejected = await (async () => await reject.admitter.admit(requestOf(key, model)))()
        .catch((e) => e);
      assert.ok(rejected instanceof GatewayError);
      assert.equal(rejected.status, 503);
      assert.equal(rejected.code, "limits_unavailable");
      assert.match(rejected.message, /GATEHOUSE_LIMITS_ON_REDIS_DOWN=reject/);
      assert.ok(!rejected.message.includes("s3cret"));
      assert.ok(await reject.admitter.admit(requestOf(keyWith({}), model)), "no limits: goes on");

      server = startRedis(port);
      await until(() => local.state().shared && reject.state().shared);
      assert.equal(local.state().backend, "redis");
      const infos = logs.local.lines.filter((l) => l.level === "info");
      assert.ok(infos.some((l) => /shared through Redis/.test(l.message)));
      const again = await local.admitter.admit(requestOf(key, model));
      again.release(spentOf({}, 0));
      for (const line of [...logs.local.lines, ...logs.reject.lines]) {
        assert.ok(!JSON.stringify(line).includes("s3cret"));
      }
    } finally {
      await local.close();
      await reject.close();
      await kill(server).catch(() => {});
    }
  },
});

Deno.test({
  name: serverFound
    ? "failover: a ledger read that fails is the store's error, not Redis down"
    : "failover: store errors (ignored: no redis-server binary on PATH)",
  ignore: !serverFound,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const port = freePort();
    const server = startRedis(port);
    const log = memoryLogger();
    const failing = {
      spend: () => Promise.reject(new Error("the store is unreachable (simulated)")),
    };
    let limits: Limits | null = null;
    try {
      limits = createLimits({
        redisUrl: `redis://:s3cret@127.0.0.1:${port}`,
        onRedisDown: "reject",
        store: failing,
        log,
        prefix: `gatehouse:test:${crypto.randomUUID()}:`,
      });
      await limits.ready(5_000);
      assert.equal(limits.state().shared, true);
      const key = keyWith({ budgetUsd: 5 });
      await assert.rejects(
        Promise.resolve(limits.admitter.admit(requestOf(key, model))),
        /the store is unreachable/,
      );
      assert.equal(limits.state().shared, true, "still shared: Redis answered");
      assert.deepEqual(log.lines.filter((line) => line.level === "warn"), []);
    } finally {
      await limits?.close();
      await kill(server);
    }
  },
});

Deno.test({
  name: serverFound
    ? "failover: a Redis that stops answering → local limits within the call timeout; back → rejoined"
    : "failover: a silent Redis (ignored: no redis-server binary on PATH)",
  ignore: !serverFound,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const port = freePort();
    const server = startRedis(port);
    const log = memoryLogger();
    let limits: Limits | null = null;
    try {
      limits = createLimits({
        redisUrl: `redis://:s3cret@127.0.0.1:${port}`,
        onRedisDown: "local",
        store: fakeLedger(),
        log,
        prefix: `gatehouse:test:${crypto.randomUUID()}:`,
      });
      await limits.ready(5_000);
      assert.equal(limits.state().shared, true);
      const key = keyWith({ rpm: 100 });
      (await limits.admitter.admit(requestOf(key, model))).release(spentOf({}, 0));
      // The connection stays open, nothing answers: only the call's own deadline can tell.
      server.kill("SIGSTOP");
      const started = Date.now();
      const served = await limits.admitter.admit(requestOf(key, model));
      const waited = Date.now() - started;
      assert.ok(waited >= 400 && waited < 1_500, `switched after ${waited} ms`);
      assert.equal(limits.state().backend, "local");
      assert.equal(log.lines.filter((l) => l.level === "warn").length, 1);
      served.release(spentOf({}, 0));
      server.kill("SIGCONT");
      await until(() => limits!.state().shared, 5_000);
      assert.ok(
        log.lines.some((l) => l.level === "info" && /shared through Redis/.test(l.message)),
      );
    } finally {
      server.kill("SIGCONT");
      await limits?.close();
      await kill(server);
    }
  },
});
