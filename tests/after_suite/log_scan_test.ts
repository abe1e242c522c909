/**
 * The suite-wide log scan (run by `deno task test` after the suite, as its own `deno test`): every
 * log line of every gateway the suite ran — in-process harnesses and `main.ts` processes, as
 * `tests/logs/collect.ts` collected them — is checked for key material: each secret any run
 * knew (gatehouse keys, provider credentials), anything shaped like a gatehouse key
 * (`gth_<id>_<secret>`) or a provider key (`sk-…`), an `Authorization` or `x-api-key` value, and
 * `[redacted]` (the sink's last-line redaction hides a leak from a `main.ts` process's output;
 * the scan still reports it). With nothing collected (one test file run on its own, a partial
 * run) the test says so as an ignored test instead of passing silently.
 * @module
 */
import assert from "node:assert/strict";
import { type CollectedRun, collectionDir, secretsOfEnv } from "../logs/collect.ts";
import { findings } from "../logs/scan.ts";

async function collected(): Promise<CollectedRun[]> {
  const dir = collectionDir();
  if (dir === null) return [];
  const runs: CollectedRun[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      runs.push(JSON.parse(await Deno.readTextFile(`${dir}/${entry.name}`)) as CollectedRun);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return runs;
}

const runs = await collected();

if (runs.length === 0) {
  Deno.test({
    name: "log scan: NOTHING TO SCAN — no gateway run collected its log lines (run the whole " +
      "suite with `deno task test`, which sets GATEHOUSE_TEST_LOG_DIR)",
    ignore: true,
    fn: () => {},
  });
} else {
  Deno.test("log scan: no key material in any log line of the suite's gateway runs", () => {
    // The machine's own credentials too (a developer's real provider key, inherited by the
    // gateways the suite spawned).
    const machine: CollectedRun = {
      source: "environment",
      lines: [],
      secrets: secretsOfEnv(Deno.env.toObject()),
    };
    const found = findings([...runs, machine]);
    const lines = runs.reduce((sum, run) => sum + run.lines.length, 0);
    const processes = runs.filter((run) => run.source === "main.ts").length;
    console.log(
      `scanned ${lines} log lines of ${runs.length} gateway runs ` +
        `(${runs.length - processes} in process, ${processes} main.ts processes)`,
    );
    assert.deepEqual(found.slice(0, 20), [], `${found.length} log lines hold key material`);
    assert.ok(processes > 0, "the suite's main.ts processes were collected too");
  });
}
