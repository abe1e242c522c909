import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore } from "../store/open_store.ts";
import { runKeysCli, USAGE } from "./keys.ts";

const KEY_LINE = /^gth_[a-z2-7]{10}_[0-9A-Za-z]{32}\n$/;

/** Runs the CLI in-process against `db`, capturing both streams. */
async function run(args: string[], db: string | undefined) {
  let stdout = "";
  let stderr = "";
  const env = new Map<string, string>(db === undefined ? [] : [["GATEHOUSE_DB", db]]);
  const code = await runKeysCli(args, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: { get: (name) => env.get(name) },
  });
  return { code, stdout, stderr };
}

async function withTempDb(fn: (db: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(join(dir, "data", "gatehouse.db"));
  } finally {
    await Deno.remove(dir, { recursive: true });
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

    const store = await openStore(db);
    try {
      assert.equal((await store.verifyKey(stdout.trim()))?.name, "laptop");
    } finally {
      await store.close();
    }
    assert.equal((await run(["create", "--name=ci"], db)).code, 0);
  });
});

Deno.test("keys list: a table of ids, names and hints, never secrets", async () => {
  await withTempDb(async (db) => {
    const empty = await run(["list"], db);
    assert.equal(empty.code, 0);
    assert.equal(empty.stdout, "");
    assert.match(empty.stderr, /No keys/);

    const a = (await run(["create", "--name", "alpha"], db)).stdout.trim();
    const b = (await run(["create", "--name", "beta"], db)).stdout.trim();
    const { code, stdout } = await run(["list"], db);
    assert.equal(code, 0);
    const lines = stdout.trimEnd().split("\n");
    assert.equal(lines.length, 3);
    assert.match(lines[0] ?? "", /^ID\s+NAME\s+HINT\s+CREATED\s+LAST USED\s+REVOKED$/);
    for (const [line, key, name] of [[lines[1], a, "alpha"], [lines[2], b, "beta"]]) {
      assert.ok(line?.startsWith(key?.slice(4, 14) ?? "?"), `row starts with the id: ${line}`);
      assert.ok(line?.includes(name ?? "?"));
      assert.ok(line?.includes(`${key?.slice(0, 12)}…`));
      assert.match(line ?? "", /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z\s+-\s+-$/);
    }
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
    assert.match((await run(["list"], db)).stdout, /\d{2}Z\s*\n$/);

    const store = await openStore(db);
    try {
      assert.equal(await store.verifyKey(key), null);
    } finally {
      await store.close();
    }

    const missing = await run(["revoke", "nosuchkey0"], db);
    assert.equal(missing.code, 1);
    assert.equal(missing.stdout, "");
    assert.match(missing.stderr, /no key with id "nosuchkey0"/);
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
      ["list", "extra"],
      ["revoke"],
      ["revoke", "a", "b"],
    ]
  ) {
    const { code, stdout, stderr } = await run(args, ":memory:");
    assert.equal(code, 2, `args ${JSON.stringify(args)}`);
    assert.equal(stdout, "");
    assert.ok(stderr.startsWith("error: "));
    assert.ok(stderr.endsWith(USAGE));
  }
  const help = await run(["--help"], ":memory:");
  assert.deepEqual(help, { code: 0, stdout: USAGE, stderr: "" });
});

Deno.test("keys: a postgres GATEHOUSE_DB is refused with exit 1 and the reason", async () => {
  const { code, stdout, stderr } = await run(["list"], "postgres://localhost/gatehouse");
  assert.equal(code, 1);
  assert.equal(stdout, "");
  assert.match(stderr, /Postgres store is not implemented yet/);
});

Deno.test("keys: run as a real process, stdout is exactly the key line", async () => {
  await withTempDb(async (db) => {
    const script = fileURLToPath(new URL("./keys.ts", import.meta.url));
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-env",
        "--allow-read",
        "--allow-write",
        script,
        "create",
        "--name",
        "sub",
      ],
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: { GATEHOUSE_DB: db, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(output.stdout);
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    assert.match(stdout, KEY_LINE);
    assert.match(stderr, /Created key [a-z2-7]{10} \("sub"\)/);

    const bad = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-env", "--allow-read", "--allow-write", script, "revoke", "missing000"],
      env: { GATEHOUSE_DB: db, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(bad.code, 1);
    assert.equal(bad.stdout.length, 0);
  });
});
