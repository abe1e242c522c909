/**
 * Redis goes away for 5 seconds under traffic and comes back: both instances keep serving (each
 * counting limits locally, as `/readyz` says), no request loses its ledger row, and afterwards
 * both are back on shared limits (an rpm limit admits exactly its number across both again). The
 * Redis here is a private `redis-server` the test kills with SIGKILL and starts again on the same
 * port, so the machine's own Redis is never touched.
 */
import assert from "node:assert/strict";
import { type Answer, send } from "../governance/gateway_process.ts";
import {
  chat,
  type Cluster,
  clusterTest,
  createKey,
  type Database,
  freshDatabase,
  type PrivateRedis,
  privateRedis,
  redisServerMissing,
  serversMissing,
  startCluster,
} from "./cluster_rig.ts";

const missing = (await serversMissing()) ?? (await redisServerMissing());
const DOWN_MS = 5_000;

clusterTest(
  "cluster: Redis down for 5 s under traffic loses no ledger row, and both instances rejoin",
  missing,
  async () => {
    let db: Database | null = null;
    let cluster: Cluster | null = null;
    let redis: PrivateRedis | null = null;
    try {
      redis = await privateRedis();
      db = await freshDatabase();
      cluster = await startCluster(2, { DATABASE_URL: db.url, REDIS_URL: redis.url });
      const [a, b] = cluster.instances as [
        typeof cluster.instances[0],
        typeof cluster.instances[0],
      ];
      const admin = cluster.adminKey;
      const limits = async (url: string) =>
        (await (await fetch(`${url}/readyz`)).json()).checks.limits as string;
      const sharedBefore = await limits(a.url);

      // A key with limits in play the whole time (far from refusing).
      const { key } = await createKey(a, admin, { rpm: 100_000, max_parallel: 50 });
      const answers: Answer[] = [];
      let running = true;
      const traffic = [a, b].map(async (instance) => {
        while (running) {
          answers.push(await chat(instance, key));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await redis.kill();
      const downAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const whileDown = [await limits(a.url), await limits(b.url)];
      await new Promise((resolve) => setTimeout(resolve, DOWN_MS - (Date.now() - downAt)));
      await redis.start();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      running = false;
      await Promise.all(traffic);

      const served = answers.filter((answer) => answer.status === 200).length;
      assert.equal(
        served,
        answers.length,
        `every request was served: ${answers.map((x) => x.status)}`,
      );
      for (const detail of whileDown) assert.match(detail, /local|unreachable/i);
      // Every answered request has its row, on either instance's report.
      const usage = await send(b.url, key, "/v1/usage");
      let requests = usage.body.totals.requests as number;
      for (let i = 0; i < 100 && requests < answers.length; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        requests = (await send(b.url, key, "/v1/usage")).body.totals.requests;
      }
      assert.equal(requests, answers.length, "no ledger row was lost");

      // Back on shared limits: both say so, and rpm 10 admits exactly 10 across both again.
      for (const url of [a.url, b.url]) {
        const deadline = Date.now() + 5_000;
        while (await limits(url) !== sharedBefore) {
          assert.ok(Date.now() < deadline, `${url} back on ${sharedBefore}: ${await limits(url)}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      const fresh = await createKey(b, admin, { rpm: 10 });
      const after = await Promise.all(
        Array.from({ length: 30 }, (_, i) => chat(i % 2 === 0 ? a : b, fresh.key)),
      );
      assert.equal(
        after.filter((answer) => answer.status === 200).length,
        10,
        JSON.stringify(after.map((answer) => [answer.status, answer.body?.error?.message])),
      );
    } finally {
      await cluster?.stop();
      await db?.drop();
      await redis?.kill();
    }
  },
);
