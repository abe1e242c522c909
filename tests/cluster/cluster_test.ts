/**
 * Two real gatehouse instances (different ports, different processes) on the machine's Postgres
 * and Redis hold one truth: an rpm limit admits exactly its number across both, a budget shared by
 * concurrent streams on both is never overspent, a key revoked through one is refused by the
 * other within a second, a Responses chain started on one continues on the other, and either
 * reports the usage of both. `deno task cluster-test` runs this folder alone.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { send } from "../governance/gateway_process.ts";
import {
  chat,
  chatStream,
  type Cluster,
  clusterTest,
  createKey,
  type Database,
  freshDatabase,
  REDIS_URL,
  serversMissing,
  startCluster,
} from "./cluster_rig.ts";

const missing = await serversMissing();

function statuses(answers: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

async function eventually<T>(ask: () => Promise<T>, done: (value: T) => boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  let last = await ask();
  while (!done(last)) {
    if (Date.now() > deadline) assert.fail(`not within ${ms} ms; last: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    last = await ask();
  }
  return last;
}

clusterTest(
  "cluster: two instances on one Postgres and one Redis share keys, limits, budgets, chains and usage",
  missing,
  async (t) => {
    let db: Database | null = null;
    let cluster: Cluster | null = null;
    try {
      db = await freshDatabase();
      cluster = await startCluster(2, { DATABASE_URL: db.url, REDIS_URL });
      const [a, b] = cluster.instances as [
        typeof cluster.instances[0],
        typeof cluster.instances[0],
      ];
      const admin = cluster.adminKey;
      const on = (i: number) => (i % 2 === 0 ? a : b);

      await t.step("rpm 10: exactly 10 of 30 requests spread over both are admitted", async () => {
        const { key } = await createKey(a, admin, { rpm: 10 });
        const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => chat(on(i), key)));
        assert.deepEqual(statuses(answers), { 200: 10, 429: 20 });
        const admittedBy = [0, 1].map((side) =>
          answers.filter((answer, i) => i % 2 === side && answer.status === 200).length
        );
        assert.equal(admittedBy[0]! + admittedBy[1]!, 10);
        for (const refused of answers.filter((answer) => answer.status === 429)) {
          assert.equal(refused.body.error.code, "rate_limit_exceeded");
        }
      });

      await t.step(
        "a budget shared by concurrent streams on both instances is not overspent",
        async () => {
          const budget = 0.002;
          const { key, id } = await createKey(a, admin, { budget_usd: budget });
          let refused = 0;
          let admitted = 0;
          // Rounds of 20 concurrent streams, 10 on each instance, until the budget refuses all.
          for (let round = 0; round < 40 && refused < 20; round++) {
            const answers = await Promise.all(
              Array.from(
                { length: 20 },
                (_, i) => chatStream(on(i), key),
              ),
            );
            const counts = statuses(answers);
            admitted += counts[200] ?? 0;
            refused = counts[429] ?? 0;
          }
          assert.equal(refused, 20, "the budget ends up refusing every request");
          assert.ok(admitted > 0);
          const usage = await eventually(
            () => send(a.url, key, "/v1/usage"),
            (answer) => answer.body.totals.requests >= admitted,
          );
          const spent = usage.body.totals.cost as number;
          assert.ok(spent <= budget + 1e-6, `spent ${spent} of a ${budget} budget (key ${id})`);
          assert.ok(spent > budget / 2, `the budget was used: ${spent}`);
        },
      );

      await t.step("a key revoked through A is refused by B within 1 s", async () => {
        const { key, id } = await createKey(a, admin, {});
        assert.equal((await chat(b, key)).status, 200, "B knows the key (and remembers it)");
        const revoked = await send(a.url, admin, `/admin/v1/keys/${id}`, { method: "DELETE" });
        assert.equal(revoked.status, 200);
        const refused = await eventually(() => chat(b, key), (answer) => answer.status === 401);
        const ms = refused.receivedAt - revoked.receivedAt;
        assert.ok(ms < 1_000, `B refused the revoked key ${ms} ms after the revocation`);
      });

      await t.step("a Responses chain started on A continues on B (the OpenAI SDK)", async () => {
        const { key } = await createKey(a, admin, {});
        const sdk = (url: string) =>
          new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 });
        const first = await sdk(a.url).responses.create({
          model: "gpt-5",
          input: "Remember the word teal",
          store: true,
        });
        // B holds no memory of A's answer: it finds it in the database, or says it cannot.
        const next = await sdk(b.url).responses.create({
          model: "gpt-5",
          input: "Which word?",
          previous_response_id: first.id,
        });
        assert.equal(next.status, "completed");
        assert.match(next.output_text, /Which word\?/);
        await assert.rejects(
          sdk(b.url).responses.create({
            model: "gpt-5",
            input: "Which word?",
            previous_response_id: "resp_unknown0000000000000000",
          }),
          (error: InstanceType<typeof OpenAI.APIError>) =>
            error.status === 404 && error.code === "previous_response_not_found",
        );
      });

      await t.step("/v1/usage on either instance counts the requests of both", async () => {
        const { key } = await createKey(a, admin, {});
        const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => chat(on(i), key)));
        assert.deepEqual(statuses(answers), { 200: 5 });
        for (const instance of [a, b]) {
          const usage = await eventually(
            () => send(instance.url, key, "/v1/usage"),
            (answer) => answer.body.totals.requests === 5,
          );
          assert.equal(usage.body.totals.outcomes.ok, 5);
        }
      });
    } finally {
      await cluster?.stop();
      await db?.drop();
    }
  },
);
