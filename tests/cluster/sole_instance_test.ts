/**
 * Several instances on one Postgres database without Redis would each count limits alone, so the
 * second one refuses to start while a key has limits (and starts with a warning while none has).
 * Real `main.ts` processes on the machine's Postgres; no Redis.
 */
import assert from "node:assert/strict";
import { startGateway } from "../governance/gateway_process.ts";
import { collectRun, secretsOfEnv } from "../logs/collect.ts";
import {
  clusterTest,
  createKey,
  type Database,
  freshDatabase,
  postgresMissing,
} from "./cluster_rig.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** Runs `main.ts` until it exits (it should refuse to start); its exit code and output. */
async function refusedStart(env: Record<string, string>) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      "--allow-sys",
      MAIN,
      "--demo",
    ],
    env: { PORT: "0", HOST: "127.0.0.1", DOCS_PORT: "off", GATEHOUSE_QUIET: "1", ...env },
    stdin: "null",
  }).output();
  const text = new TextDecoder();
  const output = text.decode(stdout) + text.decode(stderr);
  collectRun({ source: "main.ts", lines: output.split("\n"), secrets: secretsOfEnv(env) });
  return { code, output };
}

clusterTest(
  "cluster: a second instance on one Postgres without Redis starts only while no key has limits",
  await postgresMissing(),
  async () => {
    let db: Database | null = null;
    const running: Array<{ stop(): Promise<unknown> }> = [];
    try {
      db = await freshDatabase();
      const env = { DATABASE_URL: db.url, GATEHOUSE_QUIET: "1" };
      const a = await startGateway("", { env });
      running.push(a);
      const admin = /store it now:\s+(gth_\S+)/.exec(a.output())?.[1];
      assert.ok(admin, a.output());

      // No key has limits: B starts, warning that limits added later are counted per instance.
      const b = await startGateway("", { env: { ...env, GATEHOUSE_QUIET: "0" } });
      running.push(b);
      assert.match(b.output(), /another gatehouse instance serves this Postgres database/);
      await b.stop();

      await createKey(a, admin, { rpm: 10 });
      const refused = await refusedStart(env);
      assert.equal(refused.code, 1, refused.output);
      assert.match(refused.output, /gatehouse did not start: another gatehouse instance/);
      assert.match(refused.output, /Set REDIS_URL on every instance/);
    } finally {
      await Promise.all(running.map((gateway) => gateway.stop()));
      await db?.drop();
    }
  },
);
