import assert from "node:assert/strict";
import {
  backup,
  freeStamp,
  readText,
  realTarget,
  rollback,
  runStamp,
  writeAtomic,
} from "./files.mjs";

async function withDir(fn: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse-files-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("writeAtomic sets 0600 for key files, keeps an existing mode otherwise, leaves no temp file", () =>
  withDir(async (dir) => {
    const secret = `${dir}/sub/auth.json`;
    await writeAtomic(secret, "{}", 0o600);
    assert.equal(Deno.statSync(secret).mode! & 0o777, 0o600);
    assert.equal(Deno.statSync(`${dir}/sub`).mode! & 0o777, 0o700);
    const plain = `${dir}/config.toml`;
    await Deno.writeTextFile(plain, "a", { mode: 0o640 });
    Deno.chmodSync(plain, 0o640);
    await writeAtomic(plain, "b", undefined);
    assert.equal(Deno.statSync(plain).mode! & 0o777, 0o640);
    assert.equal(await readText(plain), "b");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["config.toml", "sub"]);
  }));

Deno.test("rollback restores the latest run's files byte for byte and walks back run by run", () =>
  withDir(async (dir) => {
    const a = `${dir}/a.json`;
    const b = `${dir}/b.json`;
    const original = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0x0d, 0x0a, 0xff]);
    await Deno.writeFile(a, original);
    Deno.chmodSync(a, 0o644);
    const run1 = await freeStamp([a, b], runStamp(new Date("2026-01-01T00:00:00.000Z")));
    assert.match(await backup(a, run1), /a\.json\.gatehouse-backup-20260101T000000000Z$/);
    assert.match(await backup(b, run1), /-none$/);
    await writeAtomic(a, "run1", 0o600);
    await writeAtomic(b, "run1", 0o600);
    const run2 = runStamp(new Date("2026-01-02T00:00:00.000Z"));
    await backup(b, run2);
    await writeAtomic(b, "run2", 0o600);

    assert.deepEqual((await rollback([a, b], true)).map((r) => [r.file, r.action]), [[
      b,
      "restored",
    ]]);
    assert.equal(await readText(b), "run2");
    await rollback([a, b]);
    assert.equal(await readText(a), "run1");
    assert.equal(await readText(b), "run1");
    const second = await rollback([a, b]);
    assert.deepEqual(second.map((r) => r.action).sort(), ["removed", "restored"]);
    assert.deepEqual(await Deno.readFile(a), original);
    assert.equal(Deno.statSync(a).mode! & 0o777, 0o644);
    assert.equal(await readText(b), null);
    assert.deepEqual(await rollback([a, b]), []);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["a.json"]);
  }));

Deno.test("freeStamp adds a suffix on a clash; realTarget follows a symlink", () =>
  withDir(async (dir) => {
    const file = `${dir}/s.json`;
    await Deno.writeTextFile(`${file}.gatehouse-backup-20260101T000000000Z`, "");
    assert.equal(await freeStamp([file], "20260101T000000000Z"), "20260101T000000000Z-1");
    await Deno.writeTextFile(`${dir}/real.json`, "{}");
    Deno.symlinkSync(`${dir}/real.json`, file);
    assert.equal(await realTarget(file), await Deno.realPath(`${dir}/real.json`));
    assert.equal(await realTarget(`${dir}/missing.json`), `${dir}/missing.json`);
  }));
