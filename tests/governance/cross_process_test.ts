/**
 * Governance across processes: a real `main.ts --demo` gateway serves while the real `deno task
 * keys` CLI, another process on the same SQLite file, revokes, rotates, limits, expires and lists
 * keys. The gateway reads the store's key generation at most every 250 ms, so each change must
 * show within a second of the CLI's exit, with no restart.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type Answer,
  type CliRun,
  type GatewayProcess,
  pollUntil,
  runCli,
  send,
  startGateway,
} from "./gateway_process.ts";

/** What "seen quickly" must mean for every change made by another process. */
const SEEN_WITHIN_MS = 1_000;
const KEY_LINE = /^gth_([a-z2-7]{10})_[0-9A-Za-z]{32}\n$/;

Deno.test("a running gateway sees what the keys CLI changes in another process", async (t) => {
  const dir = await Deno.makeTempDir();
  const db = join(dir, "gatehouse.db");
  let gateway: GatewayProcess | null = null;
  const latencies: Record<string, number> = {};
  let failed = false;
  const step = async (name: string, fn: () => Promise<void>) => {
    if (!(await t.step(name, fn))) failed = true;
  };

  const keys = async (...args: string[]): Promise<CliRun> => {
    const run = await runCli("keys", args, db);
    assert.equal(run.code, 0, `keys ${args.join(" ")}: ${run.stderr}`);
    return run;
  };
  /** `keys create ARGS`: the key, alone on stdout, and its id. */
  const create = async (...args: string[]) => {
    const { stdout } = await keys("create", ...args);
    const id = KEY_LINE.exec(stdout)?.[1];
    assert.ok(id, `keys create prints the key alone: ${JSON.stringify(stdout)}`);
    return { key: stdout.trim(), id };
  };
  const call = (key: string, path: string, init?: RequestInit) =>
    send(gateway!.url, key, path, init);
  const models = (key: string) => call(key, "/v1/models");
  const chat = (key: string, model = "gpt-5") =>
    call(key, "/v1/chat/completions", {
      method: "POST",
      body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: "user", content: "Hi" }] }),
    });
  const admin = (adminKey: string, method: string, path: string) =>
    call(adminKey, `/admin/v1${path}`, { method });
  /** Polls with `ask` while `keys ARGS` runs in its own process, until `done` holds of an
   * answer, which must come less than a second after the CLI's exit (it may come before: the
   * change is committed before the process ends). */
  const seenAfter = async (
    label: string,
    args: string[],
    ask: () => Promise<Answer>,
    done: (a: Answer) => boolean,
  ) => {
    const stop = { now: false };
    const polling = pollUntil(ask, done, stop);
    let run: CliRun;
    try {
      run = await keys(...args);
    } catch (error) {
      stop.now = true;
      await polling.catch(() => {});
      throw error;
    }
    const { answer } = await polling;
    const latency = answer.receivedAt - run.exitedAt;
    latencies[label] = latency;
    assert.ok(latency < SEEN_WITHIN_MS, `${label}: seen ${latency} ms after the CLI's exit`);
    return { run, answer };
  };

  try {
    const { key: adminKey } = await create("--name", "admin", "--admin");
    gateway = await startGateway(db, { env: { GATEHOUSE_QUIET: "1" } });
    const keyView = async (id: string) => (await admin(adminKey, "GET", `/keys/${id}`)).body;

    await step("revocation by the CLI is refused by the running gateway within 1 s", async () => {
      const { key, id } = await create("--name", "leaver");
      assert.equal((await models(key)).status, 200);
      assert.equal((await models(key)).status, 200, "remembered by the gateway");
      const wallStart = Date.now();
      const { run, answer } = await seenAfter(
        "revoke (CLI)",
        ["revoke", id],
        () => models(key),
        (a) => a.status !== 200,
      );
      assert.equal(run.stdout, "");
      assert.match(run.stderr, new RegExp(`Revoked key ${id}\\.`));
      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.code, "invalid_api_key");
      const revokedAt = (await keyView(id)).revoked_at;
      assert.ok(Date.parse(revokedAt) >= wallStart && Date.parse(revokedAt) <= run.exitedAt);
      // From the revocation's own commit, however long the CLI took to start and end.
      const sinceChange = answer.receivedAt - Date.parse(revokedAt);
      latencies["revoke (since revoked_at)"] = sinceChange;
      assert.ok(sinceChange >= 0 && sinceChange < SEEN_WITHIN_MS, `${sinceChange} ms`);
      assert.equal(
        answer.body.error.message,
        `The API key was revoked at ${revokedAt}: ask an admin for a new key.`,
      );
      assert.equal((await chat(key)).status, 401, "model routes refuse it as well");
    });

    await step("revocation through the admin API is immediate in the gateway", async () => {
      const { key, id } = await create("--name", "leaver-2");
      assert.equal((await chat(key)).status, 200);
      const revoked = await admin(adminKey, "DELETE", `/keys/${id}`);
      assert.equal(revoked.status, 200);
      const next = await models(key);
      assert.equal(next.status, 401, "the very next request");
      assert.match(next.body.error.message, new RegExp(`revoked at ${revoked.body.revoked_at}`));
    });

    await step("rotation: new secret, same key; the old one works for its grace", async () => {
      const policy = ["--models", "gpt-5*,claude*", "--rpm", "1000", "--budget-usd", "5"];
      const { key: old, id } = await create("--name", "rotor", ...policy);
      for (let i = 0; i < 3; i++) assert.equal((await chat(old)).status, 200);
      const before = await keyView(id);

      const rotated = await keys("rotate", id, "--grace", "2s");
      assert.equal(KEY_LINE.exec(rotated.stdout)?.[1], id, "one line, the key, same id");
      const fresh = rotated.stdout.trim();
      assert.notEqual(fresh, old);
      assert.match(rotated.stderr, /The old secret works until /);
      assert.equal((await chat(fresh)).status, 200);
      assert.equal((await chat(old)).status, 200, "the old secret during its grace");

      const after = await keyView(id);
      assert.deepEqual(
        { id: after.id, name: after.name, policy: after.policy, created: after.created_at },
        { id, name: "rotor", policy: before.policy, created: before.created_at },
      );
      const validUntil = Date.parse(after.previous_valid_until);
      assert.equal(validUntil - Date.parse(after.rotated_at), 2_000);
      const usage = await call(fresh, "/v1/usage");
      assert.equal(usage.body.key_id, id);
      assert.equal(usage.body.totals.requests, 5, "3 + 1 with the old secret, 1 with the new");

      const { answer, before: accepted } = await pollUntil(
        () => models(old),
        (a) => a.status !== 200,
      );
      assert.equal(answer.status, 401);
      assert.ok(accepted.every((a) => a.sentAt < validUntil), "no 200 after the grace");
      assert.ok(answer.receivedAt >= validUntil, "no 401 before the grace ended");
      latencies["grace end"] = answer.receivedAt - validUntil;
      assert.ok(answer.receivedAt - validUntil < SEEN_WITHIN_MS);
      assert.equal(
        answer.body.error.message,
        `The API key was rotated at ${after.rotated_at} and this secret's grace period has ended: ` +
          "use the key issued by the rotation.",
      );
      assert.equal((await models(fresh)).status, 200);

      // --grace 0: the secret in use (remembered by the gateway) stops within a second.
      const cut = await seenAfter(
        "rotate --grace 0",
        ["rotate", id, "--grace", "0"],
        () => models(fresh),
        (a) => a.status !== 200,
      );
      const { run } = cut;
      assert.equal(KEY_LINE.exec(run.stdout)?.[1], id);
      assert.match(run.stderr, /The old secret no longer works/);
      const sinceRotation = cut.answer.receivedAt - Date.parse((await keyView(id)).rotated_at);
      latencies["rotate --grace 0 (since rotated_at)"] = sinceRotation;
      assert.ok(sinceRotation >= 0 && sinceRotation < SEEN_WITHIN_MS, `${sinceRotation} ms`);
      const newest = run.stdout.trim();
      assert.equal((await models(newest)).status, 200);
      assert.match((await models(fresh)).body.error.message, /was rotated at/);
      assert.match((await models(old)).body.error.message, /it is unknown/);

      // No --grace: a day.
      const daily = await keys("rotate", id);
      assert.equal(KEY_LINE.exec(daily.stdout)?.[1], id);
      const view = await keyView(id);
      assert.equal(Date.parse(view.previous_valid_until) - Date.parse(view.rotated_at), 86_400_000);
      assert.equal((await models(newest)).status, 200, "the previous secret, in its day of grace");
      assert.equal((await models(daily.stdout.trim())).status, 200);
    });

    await step("a policy change by the CLI applies without a restart", async () => {
      const { key, id } = await create("--name", "shaped");
      assert.equal((await chat(key)).status, 200);
      const limited = await seenAfter(
        "update --models",
        ["update", id, "--models", "claude*"],
        () => chat(key),
        (a) => a.status !== 200,
      );
      assert.equal(limited.answer.status, 403);
      assert.equal(limited.answer.body.error.code, "model_not_allowed");
      assert.equal((await chat(key, "claude-sonnet-5")).status, 200);
      await seenAfter(
        "clear models",
        ["update", id, "--clear", "models"],
        () => chat(key),
        (a) => a.status === 200,
      );

      // rpm 1: one request in the minute once the gateway has the policy, then 429.
      const { answer } = await seenAfter(
        "update --rpm 1",
        ["update", id, "--rpm", "1"],
        () => chat(key),
        (a) => a.status !== 200,
      );
      assert.equal(answer.status, 429);
      assert.equal(answer.body.error.code, "rate_limit_exceeded");
      assert.ok(Number(answer.headers.get("retry-after")) > 0);
      await seenAfter(
        "clear rpm",
        ["update", id, "--clear", "rpm"],
        () => chat(key),
        (a) => a.status === 200,
      );
      assert.equal((await chat(key)).status, 200);
    });

    await step("an expired key is refused, saying when it expired", async () => {
      // Set in the past on a key the gateway remembers...
      const { key, id } = await create("--name", "lapsed");
      assert.equal((await models(key)).status, 200);
      const past = new Date(Date.now() - 60_000).toISOString();
      const { answer } = await seenAfter(
        "update --expires (past)",
        ["update", id, "--expires", past],
        () => models(key),
        (a) => a.status !== 200,
      );
      assert.equal(answer.status, 401);
      assert.equal(answer.body.error.code, "expired_api_key");
      assert.match(answer.body.error.message, new RegExp(`^The API key expired at ${past}: `));

      // ...and reached while the key is in use.
      const expiresAt = Date.now() + 2_000;
      const iso = new Date(expiresAt).toISOString();
      const soon = await create("--name", "brief", "--expires", iso);
      assert.equal((await models(soon.key)).status, 200);
      const ended = await pollUntil(() => models(soon.key), (a) => a.status !== 200);
      assert.equal(ended.answer.status, 401);
      assert.ok(ended.before.every((a) => a.sentAt < expiresAt), "no 200 after the expiry");
      assert.ok(ended.answer.receivedAt >= expiresAt, "no 401 before the expiry");
      assert.match(ended.answer.body.error.message, new RegExp(`expired at ${iso}: `));
    });

    await step("keys list shows policies, spend in the period and what is left", async () => {
      const policy = ["--models", "gpt-5*", "--rpm", "100", "--budget-usd", "0.01"];
      const { key, id } = await create("--name", "budgeted", ...policy);
      for (let i = 0; i < 3; i++) assert.equal((await chat(key)).status, 200);
      const usage = await call(key, "/v1/usage");
      const cost: number = usage.body.totals.cost;
      assert.ok(cost > 0, "demo requests are billed at the catalog's prices");

      const { stdout } = await keys("list");
      assert.ok(!stdout.includes(key.slice(15)), "no secret in the list");
      const [header, ...lines] = stdout.trimEnd().split("\n").map((l) => l.split(/ {2,}/));
      const rows = lines.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i]])));
      const row = rows.find((r) => r.ID === id);
      assert.ok(row, stdout);
      assert.equal(row.NAME, "budgeted");
      assert.equal(row.POLICY, "models=gpt-5* rpm=100 budget_usd=0.01 budget_period=total");
      assert.notEqual(row["LAST USED"], "-");
      // Dollars to six decimals, trailing zeros dropped ($0.00084/total, $0.00916).
      const near = (cell: string, usd: number) =>
        Math.abs(Number(/^\$([\d.e-]+)/.exec(cell)?.[1]) - usd) <= usd * 0.05;
      assert.match(row.SPENT!, /\/total$/);
      assert.ok(near(row.SPENT!, cost), `${row.SPENT} spent, ${cost} in the ledger`);
      assert.ok(near(row.LEFT!, 0.01 - cost), `${row.LEFT} left, ${cost} in the ledger`);
      const unlimited = rows.find((r) => r.NAME === "admin");
      assert.deepEqual([unlimited?.SPENT, unlimited?.LEFT, unlimited?.POLICY], ["-", "-", "-"]);
      assert.notEqual(rows.find((r) => r.NAME === "leaver")?.REVOKED, "-");
    });
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    await gateway?.stop();
    if (failed && gateway) console.error(`gateway output:\n${gateway.output()}`);
    await Deno.remove(dir, { recursive: true });
    console.log(`seen after (ms): ${JSON.stringify(latencies)}`);
  }
});
