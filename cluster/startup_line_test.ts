import assert from "node:assert/strict";
import { startupFields, startupLine } from "./startup_line.ts";
import type { ClusterSettings } from "./settings.ts";

const settings = (workers: number): ClusterSettings => ({
  database: "",
  redisUrl: null,
  workers,
  onRedisDown: "local",
  dbPool: 10,
  memoryTrimMb: 64,
});

Deno.test("startup line: address, workers, store kind and place, limits, models", () => {
  const line = startupLine({
    address: { hostname: "0.0.0.0", port: 8080 },
    settings: settings(2),
    store: { kind: "sqlite", describe: () => "./data/gatehouse.db" },
    limits: { detail: "limits shared by this process's worker threads" },
    listed: 12,
  });
  assert.equal(
    line,
    "gatehouse listening on http://127.0.0.1:8080 (workers 2, store sqlite ./data/gatehouse.db, " +
      "limits shared by this process's worker threads, models listed: 12)",
  );
});

Deno.test("startup line: a Postgres store is named by its URL, which carries no credentials", () => {
  const line = startupLine({
    address: { hostname: "10.0.0.5", port: 9000 },
    settings: settings(1),
    store: { kind: "postgres", describe: () => "postgres://db.internal:5432/gatehouse" },
    limits: { detail: "limits shared through Redis at 127.0.0.1:6379" },
    listed: 3,
  });
  assert.match(line, /^gatehouse listening on http:\/\/10\.0\.0\.5:9000 \(workers 1, /);
  assert.match(
    line,
    /store postgres:\/\/db\.internal:5432\/gatehouse, limits shared through Redis/,
  );
});

Deno.test("startup fields: the start event's JSON fields say what the line says", () => {
  const fields = startupFields({
    address: { hostname: "0.0.0.0", port: 8080 },
    settings: settings(4),
    store: { kind: "postgres", describe: () => "postgres://db.internal:5432/gatehouse" },
    limits: { detail: "limits shared through Redis at 127.0.0.1:6379" },
    listed: 7,
  });
  assert.deepEqual(fields, {
    address: "http://127.0.0.1:8080",
    workers: 4,
    storeKind: "postgres",
    store: "postgres://db.internal:5432/gatehouse",
    limits: "limits shared through Redis at 127.0.0.1:6379",
    modelsListed: 7,
  });
});
