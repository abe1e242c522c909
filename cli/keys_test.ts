import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { openStore } from "../store/open_store.ts";
import type { Store } from "../store/store.ts";
import { runKeysCli, USAGE } from "./keys.ts";
import { runTeamsCli } from "./teams.ts";
import { runCli, withTempDb } from "./cli_test_kit.ts";
import { usageRow } from "../routes/handlers/admin_test_kit.ts";

const KEY_LINE = /^gth_[a-z2-7]{10}_[0-9A-Za-z]{32}\n$/;

const run = (args: string[], db: string | undefined) => runCli(runKeysCli, args, db);

async function withStore<T>(db: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(db);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

Deno.test("keys create: the key alone on stdout, the id on stderr", async () => {
  await withTempDb(async (db) => {
    const { code, stdout, stderr } = await run(["create", "--name", "laptop"], db);
    assert.equal(code, 0);
    assert.match(stdout, KEY_LINE);
    const id = stdout.slice(4, 14);
    assert.match(stderr, new RegExp(`Created key ${id} \\("laptop"\\)`));
    assert.ok(!stderr.includes(stdout.trim()), "the key is not repeated on stderr");
    const record = await withStore(db, (store) => store.verifyKey(stdout.trim()));
    assert.equal(record?.name, "laptop");
    assert.deepEqual(record?.policy, {});
    assert.equal((await run(["create", "--name=ci"], db)).code, 0);
  });
});

Deno.test("keys create: policy flags, team and admin are stored as the admin API stores them", async () => {
  await withTempDb(async (db) => {
    assert.equal((await runCli(runTeamsCli, ["create", "research"], db)).code, 0);
    const args = [
      "create",
      "--name",
      "alice",
      "--models",
      "gpt-5*, claude-sonnet-5",
      "--rpm",
      "60",
      "--tpm",
      "10000",
      "--max-parallel",
      "2",
      "--budget-usd",
      "12.5",
      "--budget-period",
      "week",
      "--expires",
      "2030-01-01",
      "--team",
      "research",
      "--admin",
    ];
    const { code, stdout, stderr } = await run(args, db);
    assert.equal(code, 0, stderr);
    const record = await withStore(db, (store) => store.verifyKey(stdout.trim()));
    assert.deepEqual(record?.policy, {
      models: ["gpt-5*", "claude-sonnet-5"],
      rpm: 60,
      tpm: 10000,
      maxParallel: 2,
      budgetUsd: 12.5,
      budgetPeriod: "week",
      expiresAt: Date.parse("2030-01-01T00:00:00Z"),
    });
    assert.equal(record?.team, "research");
    assert.equal(record?.admin, true);
    const expires = await run(["create", "--name", "soon", "--expires", "30d"], db);
    const soon = await withStore(db, (store) => store.verifyKey(expires.stdout.trim()));
    assert.ok(Math.abs((soon?.policy.expiresAt ?? 0) - (Date.now() + 30 * 86_400_000)) < 60_000);
  });
});

Deno.test("keys: a bad value exits 2 naming its flag", async () => {
  await withTempDb(async (db) => {
    const check = async (args: string[], message: RegExp) => {
      const { code, stdout, stderr } = await run(args, db);
      assert.equal(code, 2, `${args.join(" ")}: ${stderr}`);
      assert.equal(stdout, "");
      assert.match(stderr, message);
    };
    // Checked by the admin API's schemas, before the store is opened.
    const schemaCases: Array<[string[], RegExp]> = [
      [["create", "--name", "a", "--rpm", "fast"], /^error: --rpm "fast": /],
      [["create", "--name", "a", "--rpm", "0"], /^error: --rpm "0": /],
      [["create", "--name", "a", "--budget-usd=-1"], /^error: --budget-usd "-1": /],
      [
        ["create", "--name", "a", "--budget-period", "weekly", "--budget-usd", "1"],
        /^error: --budget-period "weekly": /,
      ],
      [["create", "--name", "a", "--team", "Bad Team"], /^error: --team "Bad Team": /],
      [["update", "abcdefghij", "--clear", "colour"], /^error: --clear colour: not a field/],
      [["update", "abcdefghij", "--clear", "rpm", "--rpm", "5"], /contradict/],
      [["update", "abcdefghij", "--admin", "--no-admin"], /contradict/],
      [["rotate", "abcdefghij", "--grace", "soon"], /^error: --grace "soon": use a duration/],
      [["rotate", "abcdefghij", "--grace", "400d"], /^error: --grace "400d": /],
    ];
    for (const [args, message] of schemaCases) await check(args, message);
    await assert.rejects(Deno.stat(db), Deno.errors.NotFound);
    // Checked by the shared admin operations against the store.
    await check(
      ["create", "--name", "a", "--budget-period", "week"],
      /^error: --budget-period: .*needs a budget/,
    );
    await check(["create", "--name", "a", "--expires", "soon"], /^error: --expires: .*not a time/);
    await check(
      ["create", "--name", "a", "--team", "nosuch"],
      /^error: --team: Team "nosuch" does not exist/,
    );
  });
});

Deno.test("keys update: flags change, --clear removes, the rest stays; unknown id exits 1", async () => {
  await withTempDb(async (db) => {
    await runCli(runTeamsCli, ["create", "red"], db);
    const key = (await run(
      ["create", "--name", "k", "--rpm", "5", "--budget-usd", "3", "--team", "red", "--admin"],
      db,
    )).stdout.trim();
    const id = key.slice(4, 14);
    const updated = await run(
      ["update", id, "--tpm", "900", "--clear", "budget-usd", "--clear", "team", "--no-admin"],
      db,
    );
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(updated.stdout, "");
    assert.match(updated.stderr, new RegExp(`Updated key ${id} \\("k"\\): rpm=5 tpm=900`));
    const record = await withStore(db, (store) => store.getKey(id));
    assert.deepEqual(record?.policy, { rpm: 5, tpm: 900 });
    assert.equal(record?.team, null);
    assert.equal(record?.admin, false);
    assert.equal((await run(["update", id, "--name", "renamed"], db)).code, 0);
    assert.equal((await withStore(db, (store) => store.getKey(id)))?.name, "renamed");

    const nothing = await run(["update", id], db);
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /update needs something to change/);
    const missing = await run(["update", "nosuchkey0", "--rpm", "1"], db);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^error: No key with id "nosuchkey0".*deno task keys list/);
  });
});

Deno.test("keys rotate: the new key alone on stdout; the old works for the grace", async () => {
  await withTempDb(async (db) => {
    const old = (await run(["create", "--name", "ci"], db)).stdout.trim();
    const id = old.slice(4, 14);
    const rotated = await run(["rotate", id, "--grace", "1h"], db);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.match(rotated.stdout, KEY_LINE);
    assert.equal(rotated.stdout.slice(4, 14), id);
    assert.match(rotated.stderr, /The old secret works until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z/);
    const fresh = rotated.stdout.trim();
    await withStore(db, async (store) => {
      assert.ok("record" in await store.checkKey(old));
      assert.ok("record" in await store.checkKey(fresh));
      const until = (await store.getKey(id))?.previousValidUntil ?? 0;
      assert.ok(Math.abs(until - (Date.now() + 3_600_000)) < 60_000);
    });
    const now = await run(["rotate", id, "--grace", "0"], db);
    assert.match(now.stderr, /The old secret no longer works/);
    await withStore(db, async (store) => {
      const check = await store.checkKey(fresh);
      assert.equal("reason" in check ? check.reason : "accepted", "rotated");
    });
    await run(["revoke", id], db);
    const revoked = await run(["rotate", id], db);
    assert.equal(revoked.code, 1);
    assert.match(revoked.stderr, /is revoked and cannot be rotated/);
  });
});

Deno.test("keys list: ids, names, hints, team, policy, spend and what is left; never secrets", async () => {
  await withTempDb(async (db) => {
    const empty = await run(["list"], db);
    assert.equal(empty.code, 0);
    assert.equal(empty.stdout, "");
    assert.match(empty.stderr, /No keys/);

    const a = (await run(["create", "--name", "alpha", "--budget-usd", "10"], db)).stdout.trim();
    const b = (await run(["create", "--name", "beta", "--rpm", "7"], db)).stdout.trim();
    await withStore(db, (store) => store.recordUsage(usageRow(a.slice(4, 14), "gpt-5", 2.5)));
    const { code, stdout } = await run(["list"], db);
    assert.equal(code, 0);
    const lines = stdout.trimEnd().split("\n");
    assert.equal(lines.length, 3);
    assert.match(
      lines[0] ?? "",
      /^ID\s+NAME\s+HINT\s+TEAM\s+ADMIN\s+CREATED\s+LAST USED\s+REVOKED\s+SPENT\s+LEFT\s+POLICY$/,
    );
    for (const [line, key, name] of [[lines[1], a, "alpha"], [lines[2], b, "beta"]]) {
      assert.ok(line?.startsWith(key?.slice(4, 14) ?? "?"), `row starts with the id: ${line}`);
      assert.ok(line?.includes(name ?? "?"));
      assert.ok(line?.includes(`${key?.slice(0, 12)}…`));
    }
    assert.match(lines[1] ?? "", /\$2\.50\/total\s+\$7\.50\s+budget_usd=10 budget_period=total$/);
    assert.match(lines[2] ?? "", /-\s+-\s+rpm=7$/);
    for (const key of [a, b]) assert.ok(!stdout.includes(key.slice(15)), "a secret was listed");
  });
});

Deno.test("keys revoke: marks the key revoked; an unknown id exits 1", async () => {
  await withTempDb(async (db) => {
    const key = (await run(["create", "--name", "old"], db)).stdout.trim();
    const id = key.slice(4, 14);
    const revoked = await run(["revoke", id], db);
    assert.equal(revoked.code, 0);
    assert.match(revoked.stderr, new RegExp(`Revoked key ${id}`));
    assert.match((await run(["list"], db)).stdout, /\d{2}Z\s+-\s+-\s+-\s*\n$/);
    assert.equal(await withStore(db, (store) => store.verifyKey(key)), null);

    const missing = await run(["revoke", "nosuchkey0"], db);
    assert.equal(missing.code, 1);
    assert.equal(missing.stdout, "");
    assert.match(missing.stderr, /No key with id "nosuchkey0"/);
  });
});

Deno.test("keys: bad arguments print the usage on stderr and exit 2", async () => {
  for (
    const args of [
      [],
      ["frobnicate"],
      ["create"],
      ["create", "--name", "  "],
      ["create", "--name", "x", "extra"],
      ["create", "--nmae", "x"],
      ["create", "--name", "x", "--grace", "1h"],
      ["list", "extra"],
      ["list", "--rpm", "1"],
      ["revoke"],
      ["revoke", "a", "b"],
      ["rotate"],
      ["update"],
      ["update", "a", "b", "--rpm", "1"],
    ]
  ) {
    const { code, stdout, stderr } = await run(args, ":memory:");
    assert.equal(code, 2, `args ${JSON.stringify(args)}`);
    assert.equal(stdout, "");
    assert.ok(stderr.startsWith("error: "));
    assert.ok(stderr.endsWith(USAGE), stderr);
  }
  const help = await run(["--help"], ":memory:");
  assert.deepEqual(help, { code: 0, stdout: USAGE, stderr: "" });
});

Deno.test("keys: an unreachable Postgres store is exit 1 with the reason, without its password", async () => {
  const { code, stdout, stderr } = await run(
    ["list"],
    "postgres://u:hunter2@127.0.0.1:1/gatehouse",
  );
  assert.equal(code, 1);
  assert.equal(stdout, "");
  assert.match(
    stderr,
    /could not open the Postgres store at postgres:\/\/127\.0\.0\.1:1\/gatehouse/,
  );
  assert.ok(!stderr.includes("hunter2"));
});

Deno.test("keys: run as a real process, stdout is exactly the key line", async () => {
  await withTempDb(async (db) => {
    const script = fileURLToPath(new URL("./keys.ts", import.meta.url));
    const runScript = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-env", "--allow-read", "--allow-write", script, ...args],
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        env: { GATEHOUSE_DB: db, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const output = await runScript(["create", "--name", "sub"]);
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    assert.match(stdout, KEY_LINE);
    assert.match(stderr, /Created key [a-z2-7]{10} \("sub"\)/);

    const rotated = await runScript(["rotate", stdout.slice(4, 14)]);
    assert.equal(rotated.code, 0);
    assert.match(new TextDecoder().decode(rotated.stdout), KEY_LINE);

    const bad = await runScript(["revoke", "missing000"]);
    assert.equal(bad.code, 1);
    assert.equal(bad.stdout.length, 0);
  });
});
