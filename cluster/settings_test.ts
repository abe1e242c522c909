import assert from "node:assert/strict";
import {
  DEFAULT_DB_PATH,
  readClusterSettings,
  redactUrl,
  storeLocation,
  workerPoolSize,
} from "./settings.ts";

const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("settings: the defaults are one worker, the SQLite file, limits in process", () => {
  assert.deepEqual(readClusterSettings(envOf({}), []), {
    database: DEFAULT_DB_PATH,
    redisUrl: null,
    workers: 1,
    onRedisDown: "local",
    dbPool: 10,
    memoryTrimMb: 64,
  });
});

Deno.test("settings: the Postgres pool is shared by the workers, at least 2 each", () => {
  assert.equal(workerPoolSize({ dbPool: 10, workers: 1 }), 10);
  assert.equal(workerPoolSize({ dbPool: 10, workers: 4 }), 3);
  assert.equal(workerPoolSize({ dbPool: 10, workers: 8 }), 2);
  assert.equal(readClusterSettings(envOf({ GATEHOUSE_DB_POOL: "40" }), []).dbPool, 40);
  assert.throws(
    () => readClusterSettings(envOf({ GATEHOUSE_DB_POOL: "0" }), []),
    /GATEHOUSE_DB_POOL/,
  );
});

Deno.test("settings: DATABASE_URL wins over GATEHOUSE_DB", () => {
  const env = envOf({ DATABASE_URL: "postgres://db/gh", GATEHOUSE_DB: "./x.db" });
  assert.equal(storeLocation(env), "postgres://db/gh");
  assert.equal(storeLocation(envOf({ GATEHOUSE_DB: "./x.db" })), "./x.db");
  assert.equal(storeLocation(envOf({ DATABASE_URL: "" })), DEFAULT_DB_PATH);
});

Deno.test("settings: --workers beats GATEHOUSE_WORKERS, in both spellings", () => {
  const env = envOf({ GATEHOUSE_WORKERS: "3" });
  assert.equal(readClusterSettings(env, []).workers, 3);
  assert.equal(readClusterSettings(env, ["--workers", "2"]).workers, 2);
  assert.equal(readClusterSettings(env, ["--demo", "--workers=4"]).workers, 4);
});

Deno.test("settings: bad values are refused, naming the setting", () => {
  assert.throws(() => readClusterSettings(envOf({}), ["--workers", "0"]), /--workers="0"/);
  assert.throws(() => readClusterSettings(envOf({}), ["--workers"]), /--workers=""/);
  assert.throws(
    () => readClusterSettings(envOf({ GATEHOUSE_WORKERS: "two" }), []),
    /GATEHOUSE_WORKERS/,
  );
  assert.throws(() => readClusterSettings(envOf({}), ["--workers=65"]), /64/);
  assert.throws(
    () => readClusterSettings(envOf({ GATEHOUSE_DB: ":memory:" }), ["--workers=2"]),
    /private to one worker/,
  );
  assert.throws(
    () => readClusterSettings(envOf({ GATEHOUSE_LIMITS_ON_REDIS_DOWN: "open" }), []),
    /local, reject/,
  );
});

Deno.test("settings: a REDIS_URL that is not redis:// is refused without echoing its secret", () => {
  assert.throws(
    () => readClusterSettings(envOf({ REDIS_URL: "http://u:hunter2@h:6379" }), []),
    (e: Error) => !e.message.includes("hunter2") && /redis:\/\//.test(e.message),
  );
  assert.throws(
    () => readClusterSettings(envOf({ REDIS_URL: "redis://:hunter2@host:63x79" }), []),
    (e: Error) => !e.message.includes("hunter2") && /REDIS_URL cannot be parsed/.test(e.message),
  );
  const ok = readClusterSettings(envOf({ REDIS_URL: "redis://:pw@127.0.0.1:6379/0" }), []);
  assert.equal(ok.redisUrl, "redis://:pw@127.0.0.1:6379/0");
});

Deno.test("settings: redactUrl drops credentials", () => {
  assert.equal(
    redactUrl("postgres://user:secret@db.internal:5432/gh"),
    "postgres://db.internal:5432/gh",
  );
  assert.equal(redactUrl("redis://:pw@127.0.0.1:6379"), "redis://127.0.0.1:6379");
  assert.equal(redactUrl("not a url with secret"), "<not a URL>");
  assert.equal(
    redactUrl("postgres://h:5432/gh?password=pw&sslmode=require"),
    "postgres://h:5432/gh",
  );
});
