/**
 * Several real gatehouse processes (`main.ts --demo`, the mock provider answering) on one
 * Postgres database and one Redis: the machine's servers (`TEST_DATABASE_URL`, default
 * postgres://postgres@127.0.0.1:5432/postgres; `TEST_REDIS_URL`, default redis://127.0.0.1:6379),
 * a fresh database per cluster, dropped at the end; or a private `redis-server` this rig starts,
 * stops and restarts for the outage scenario.
 * @module
 */
import postgres from "postgres";
import { redisReachable } from "../../cluster/redis_probe.ts";
import { redactUrl } from "../../cluster/settings.ts";
import {
  FIRST_KEY,
  type GatewayProcess,
  send,
  startGateway,
} from "../governance/gateway_process.ts";
import { installRequired } from "../clients/real_clients.ts";

/** The Postgres server the cluster tests use. */
export const PG_URL = Deno.env.get("TEST_DATABASE_URL") ??
  "postgres://postgres@127.0.0.1:5432/postgres";
/** The Redis server the cluster tests use. */
export const REDIS_URL = Deno.env.get("TEST_REDIS_URL") ?? "redis://127.0.0.1:6379";

/** Why the Postgres server cannot be used, or null. */
export async function postgresMissing(): Promise<string | null> {
  const sql = postgres(PG_URL, { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`SELECT 1`;
    return null;
  } catch {
    return `no Postgres at ${redactUrl(PG_URL)} (set TEST_DATABASE_URL)`;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** Why the servers cannot be used (the tests are then skipped, saying so), or null. */
export async function serversMissing(): Promise<string | null> {
  const missing: string[] = [];
  const postgres = await postgresMissing();
  if (postgres !== null) missing.push(postgres);
  if (!await redisReachable(REDIS_URL)) {
    missing.push(`no Redis at ${redactUrl(REDIS_URL)} (set TEST_REDIS_URL)`);
  }
  return missing.length === 0 ? null : missing.join("; ");
}

/** A database of its own on the Postgres server. */
export interface Database {
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database named `gatehouse_cluster_<random>`. */
export async function freshDatabase(): Promise<Database> {
  const name = `gatehouse_cluster_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(PG_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      try {
        await admin.unsafe(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`,
        );
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
      } finally {
        await admin.end({ timeout: 1 });
      }
    },
  };
}

/** Instances on one database, and the admin key the first one created. */
export interface Cluster {
  instances: GatewayProcess[];
  adminKey: string;
  /** Stops every instance (SIGTERM: they drain and write their queued rows). */
  stop(): Promise<void>;
}

/** Starts `count` instances one after the other on `env` (DATABASE_URL, REDIS_URL, ...). */
export async function startCluster(
  count: number,
  env: Record<string, string>,
): Promise<Cluster> {
  const instances: GatewayProcess[] = [];
  const stop = async () => {
    await Promise.all(instances.map((instance) => instance.stop(10_000)));
  };
  try {
    for (let i = 0; i < count; i++) {
      instances.push(await startGateway("", { env: { GATEHOUSE_QUIET: "1", ...env } }));
    }
    const adminKey = FIRST_KEY.exec(instances[0]!.output())?.[1];
    if (adminKey === undefined) throw new Error(`no first key:\n${instances[0]!.output()}`);
    return { instances, adminKey, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Creates a key through `instance`'s admin API; its secret and id. */
export async function createKey(
  instance: GatewayProcess,
  adminKey: string,
  body: Record<string, unknown>,
): Promise<{ key: string; id: string }> {
  const answer = await send(instance.url, adminKey, "/admin/v1/keys", {
    method: "POST",
    body: JSON.stringify({ name: "cluster test", ...body }),
  });
  if (answer.status !== 201 && answer.status !== 200) {
    throw new Error(`creating a key: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return { key: answer.body.key, id: answer.body.id };
}

/** A chat request to the mock model, answered as one JSON body. */
export function chat(
  instance: GatewayProcess,
  key: string,
  options: { maxTokens?: number } = {},
) {
  return send(instance.url, key, "/v1/chat/completions", {
    method: "POST",
    body: JSON.stringify({
      model: "gpt-5",
      max_tokens: options.maxTokens ?? 16,
      messages: [{ role: "user", content: "Hello from the cluster test" }],
    }),
  });
}

/** A streamed chat request to the mock model, its body read whole as text. */
export async function chatStream(
  instance: GatewayProcess,
  key: string,
  maxTokens = 40,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${instance.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: "gpt-5",
      max_tokens: maxTokens,
      stream: true,
      messages: [{ role: "user", content: "Hello from the cluster test" }],
    }),
  });
  return { status: response.status, text: await response.text() };
}

/** A private Redis server this rig can kill and start again on the same port. */
export interface PrivateRedis {
  url: string;
  port: number;
  /** SIGKILL: the server is gone at once, with nothing saved. */
  kill(): Promise<void>;
  /** Starts it again on the same port; resolves once it answers. */
  start(): Promise<void>;
}

/** Whether `redis-server` can be run here. */
export async function redisServerMissing(): Promise<string | null> {
  try {
    const { success } = await new Deno.Command("redis-server", { args: ["--version"] }).output();
    return success ? null : "redis-server --version failed";
  } catch {
    return "no redis-server binary on PATH (Debian package redis-server)";
  }
}

/** Starts a private `redis-server` on a free port. */
export async function privateRedis(): Promise<PrivateRedis> {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const url = `redis://127.0.0.1:${port}`;
  let child: Deno.ChildProcess | null = null;
  const start = async () => {
    child = new Deno.Command("redis-server", {
      args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      stdout: "null",
      stderr: "null",
    }).spawn();
    const deadline = Date.now() + 5_000;
    while (!await redisReachable(url, 200)) {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const kill = async () => {
    if (child === null) return;
    const running = child;
    child = null;
    running.kill("SIGKILL");
    await running.status;
  };
  await start();
  return { url, port, kill, start };
}

/** Registers a cluster test: run when the servers are there; else ignored with the reason in its
 * name, or — under CI (`CI` set), where the servers must be there — failed with it. */
export function clusterTest(
  name: string,
  missing: string | null,
  fn: (t: Deno.TestContext) => Promise<void>,
): void {
  const required = installRequired(Deno.env.get("CI"));
  Deno.test({
    name: missing === null ? name : `${name}: ${required ? "cannot run" : "skipped"}, ${missing}`,
    ignore: missing !== null && !required,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: missing === null ? fn : () => Promise.reject(new Error(`CI needs them: ${missing}`)),
  });
}
