import assert from "node:assert/strict";
import { runKeysCli } from "./keys.ts";
import { runCli, withTempDb } from "./cli_test_kit.ts";

Deno.test("keys rotate --grace 0: says the old secret no longer works however slow the rotation", async () => {
  await withTempDb(async (db) => {
    const old = (await runCli(runKeysCli, ["create", "--name", "ci"], db)).stdout.trim();
    const id = old.slice(4, 14);
    // Every reading of the clock is 5 ms after the one before: the rotation is stamped later than
    // the time the command started (as in a real process, where opening and preparing take time).
    const realNow = Date.now;
    let ticks = 0;
    Date.now = () => realNow() + 5 * ticks++;
    let rotated;
    try {
      rotated = await runCli(runKeysCli, ["rotate", id, "--grace", "0"], db);
    } finally {
      Date.now = realNow;
    }
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.match(rotated.stderr, /The old secret no longer works\./);
    assert.doesNotMatch(rotated.stderr, /works until/);
    const hour = await runCli(runKeysCli, ["rotate", id, "--grace", "1h"], db);
    assert.match(hour.stderr, /The old secret works until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z\./);
  });
});
