import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { openStore } from "../store/open_store.ts";
import type { Store } from "../store/store.ts";
import { runKeysCli } from "./keys.ts";
import { runTeamsCli, USAGE } from "./teams.ts";
import { runCli, withTempDb } from "./cli_test_kit.ts";
import { usageRow } from "../routes/handlers/admin_test_kit.ts";

const run = (args: string[], db: string | undefined) => runCli(runTeamsCli, args, db);

async function withStore<T>(db: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(db);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

Deno.test("teams create: the policy is stored; a taken id exits 1, a bad one 2", async () => {
  await withTempDb(async (db) => {
    const created = await run(
      ["create", "research", "--rpm", "600", "--budget-usd", "100", "--budget-period", "month"],
      db,
    );
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout, "");
    assert.match(
      created.stderr,
      /Created team research .*rpm=600 budget_usd=100 budget_period=month/,
    );
    const team = await withStore(db, (store) => store.getTeam("research"));
    assert.deepEqual(team?.policy, { rpm: 600, budgetUsd: 100, budgetPeriod: "month" });

    const taken = await run(["create", "research"], db);
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /^error: Team "research" already exists/);
    const bad = await run(["create", "Research Team"], db);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error: ID: a team id is/);
    const value = await run(["create", "ops", "--tpm", "many"], db);
    assert.equal(value.code, 2);
    assert.match(value.stderr, /^error: --tpm "many": /);
  });
});

Deno.test("teams update: flags change, --clear removes, the rest stays; unknown id exits 1", async () => {
  await withTempDb(async (db) => {
    await run(["create", "red", "--rpm", "10", "--tpm", "500", "--models", "gpt-5*"], db);
    const updated = await run(["update", "red", "--rpm", "20", "--clear", "tpm"], db);
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stderr, /Updated team red: models=gpt-5\* rpm=20$/m);
    const team = await withStore(db, (store) => store.getTeam("red"));
    assert.deepEqual(team?.policy, { models: ["gpt-5*"], rpm: 20 });
    const cleared = await run(["update", "red", "--clear", "models", "--clear", "rpm"], db);
    assert.equal(cleared.code, 0);
    assert.match(cleared.stderr, /Updated team red: -$/m);

    const teamField = await run(["update", "red", "--clear", "team"], db);
    assert.equal(teamField.code, 2);
    assert.match(teamField.stderr, /--clear team: not a field/);
    const missing = await run(["update", "blue", "--rpm", "1"], db);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^error: No team "blue".*deno task teams list/);
  });
});

Deno.test("teams list: keys counted, policy, the team's spend and what is left", async () => {
  await withTempDb(async (db) => {
    const empty = await run(["list"], db);
    assert.deepEqual([empty.code, empty.stdout], [0, ""]);
    assert.match(empty.stderr, /No teams/);

    await run(["create", "red", "--budget-usd", "50", "--budget-period", "day"], db);
    await run(["create", "blue"], db);
    const key = (await runCli(runKeysCli, ["create", "--name", "k", "--team", "red"], db)).stdout;
    await withStore(db, (store) => store.recordUsage(usageRow(key.slice(4, 14), "gpt-5", 1.5)));
    const { code, stdout } = await run(["list"], db);
    assert.equal(code, 0);
    const lines = stdout.trimEnd().split("\n");
    assert.match(lines[0] ?? "", /^ID\s+KEYS\s+CREATED\s+SPENT\s+LEFT\s+POLICY$/);
    assert.match(lines[1] ?? "", /^blue\s+0\s+\S+ \S+\s+-\s+-\s+-$/);
    assert.match(
      lines[2] ?? "",
      /^red\s+1\s+.*\$1\.50\/day\s+\$48\.50\s+budget_usd=50 budget_period=day$/,
    );
  });
});

Deno.test("teams delete: refused (exit 1) while a live key belongs to it, then deleted", async () => {
  await withTempDb(async (db) => {
    await run(["create", "temp"], db);
    const key = (await runCli(runKeysCli, ["create", "--name", "k", "--team", "temp"], db)).stdout;
    const busy = await run(["delete", "temp"], db);
    assert.equal(busy.code, 1);
    assert.match(busy.stderr, /still has 1 key/);
    assert.equal((await runCli(runKeysCli, ["revoke", key.slice(4, 14)], db)).code, 0);
    const deleted = await run(["delete", "temp"], db);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.match(deleted.stderr, /Deleted team temp/);
    assert.equal(await withStore(db, (store) => store.getTeam("temp")), null);
    assert.equal((await run(["delete", "temp"], db)).code, 1);
  });
});

Deno.test("teams: bad arguments print the usage on stderr and exit 2", async () => {
  for (
    const args of [
      [],
      ["frobnicate"],
      ["create"],
      ["create", "a", "b"],
      ["create", "a", "--name", "x"],
      ["update", "a"],
      ["list", "x"],
      ["delete"],
      ["delete", "a", "--rpm", "1"],
    ]
  ) {
    const { code, stdout, stderr } = await run(args, ":memory:");
    assert.equal(code, 2, `args ${JSON.stringify(args)}`);
    assert.equal(stdout, "");
    assert.ok(stderr.startsWith("error: "));
    assert.ok(stderr.endsWith(USAGE), stderr);
  }
  assert.deepEqual(await run(["-h"], ":memory:"), { code: 0, stdout: USAGE, stderr: "" });
});

Deno.test("teams: the deno task runs it with the keys task's permissions", async () => {
  await withTempDb(async (db) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["task", "-q", "teams", "create", "ops", "--rpm", "5"],
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: { GATEHOUSE_DB: db, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    assert.match(stderr, /Created team ops/);
    assert.deepEqual(
      (await withStore(db, (store) => store.getTeam("ops")))?.policy,
      { rpm: 5 },
    );
  });
});
