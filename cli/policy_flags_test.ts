import assert from "node:assert/strict";
import { CreateKeyBody } from "../routes/admin_schemas.ts";
import { UsageError } from "./cli_common.ts";
import {
  checked,
  clearsFromFlags,
  flagOf,
  parseCommandLine,
  parseDuration,
  policyFromFlags,
  policySummary,
} from "./policy_flags.ts";

Deno.test("policy flags become the wire fields the admin API takes", () => {
  const line = parseCommandLine([
    "create",
    "--models",
    "a, b*,,",
    "--rpm",
    "60",
    "--budget-usd",
    "2.5",
    "--budget-period",
    "day",
    "--expires",
    "1700000000",
    "--max-parallel",
    "x",
  ]);
  assert.deepEqual(policyFromFlags(line.flags), {
    models: ["a", "b*"],
    rpm: 60,
    max_parallel: "x",
    budget_usd: 2.5,
    budget_period: "day",
    expires_at: 1700000000,
  });
  assert.equal(
    policyFromFlags(parseCommandLine(["x", "--expires", "30d"]).flags).expires_at,
    "30d",
  );
});

Deno.test("--clear takes wire or flag spellings, only clearable fields, never one also set", () => {
  const flags =
    parseCommandLine(["u", "--clear", "budget-usd", "--clear", "expires", "--clear", "team"])
      .flags;
  assert.deepEqual(clearsFromFlags(flags, ["budget_usd", "expires_at", "team"], {}), {
    budget_usd: null,
    expires_at: null,
    team: null,
  });
  assert.throws(() => clearsFromFlags(flags, ["budget_usd", "expires_at"], {}), /--clear team/);
  assert.throws(
    () => clearsFromFlags(flags, ["budget_usd", "expires_at", "team"], { budget_usd: 1 }),
    /--clear budget-usd and --budget-usd contradict/,
  );
});

Deno.test("a schema violation names the flag and the value it carried", () => {
  const flags = parseCommandLine(["c", "--rpm=-5x"]).flags;
  assert.throws(
    () => checked(CreateKeyBody, { name: "a", rpm: "-5x" }, flags),
    (error) => error instanceof UsageError && /^--rpm "-5x": /.test(error.message),
  );
  assert.deepEqual(checked(CreateKeyBody, { name: " a ", rpm: 1 }, flags), { name: "a", rpm: 1 });
  assert.equal(flagOf("expires_at"), "--expires");
  assert.equal(flagOf("max_parallel"), "--max-parallel");
  assert.equal(flagOf("grace_seconds"), "--grace");
  assert.equal(flagOf("id"), "ID");
  assert.equal(flagOf("nothing"), null);
});

Deno.test("grace durations: 0, seconds, minutes, hours, days; a bare number needs a unit", () => {
  assert.deepEqual(
    ["0", "90s", "30m", "1h", "24h", "7d"].map((d) => parseDuration(d, "--grace")),
    [0, 90, 1800, 3600, 86_400, 604_800],
  );
  for (const bad of ["5", "1w", "-1h", "soon", ""]) {
    assert.throws(() => parseDuration(bad, "--grace"), /--grace .*use a duration/);
  }
});

Deno.test("a policy in one line, in wire names", () => {
  assert.equal(policySummary({}), "-");
  assert.equal(
    policySummary({ models: ["a", "b"], rpm: 5, budgetUsd: 3 }),
    "models=a,b rpm=5 budget_usd=3 budget_period=total",
  );
});

Deno.test("a syntax error is a usage error that shows the usage", () => {
  assert.throws(
    () => parseCommandLine(["create", "--nmae", "x"]),
    (error) => error instanceof UsageError && error.showUsage,
  );
});
