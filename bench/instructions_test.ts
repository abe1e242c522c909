import assert from "node:assert/strict";
import { dumpTotal, formatInstructions, median, newestDump } from "./instructions.ts";

Deno.test("dumpTotal: the totals line of a callgrind dump, else its summary", () => {
  const dump = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\nsummary: 219662100\n" +
    "fl=(1) ???\nfn=(1) 0x0000000000ad1234\n12 5\ntotals: 219663269\n";
  assert.equal(dumpTotal(dump), 219663269);
  assert.equal(dumpTotal("events: Ir\nsummary: 42\n"), 42);
  assert.throws(() => dumpTotal("events: Ir\n"), /no totals line/);
});

Deno.test("median: the middle value, or the mean of the middle two", () => {
  assert.equal(median([5, 1, 3]), 3);
  assert.equal(median([413, 658, 421, 423]), 422);
  // A round with a full collection of the old generation does not move it.
  assert.equal(median([420, 421, 700]), 421);
});

Deno.test("formatInstructions: rounds and medians in thousands, the second build against the first", () => {
  const text = formatInstructions([
    { label: "abc1234", rounds: [420_000, 424_000, 650_000] },
    { label: "this checkout", rounds: [400_000, 402_000, 404_000] },
  ]);
  assert.match(text, /abc1234 +median 424\.0 k +\(rounds: 420\.0, 424\.0, 650\.0\)/);
  assert.match(text, /this checkout +median 402\.0 k/);
  assert.match(
    text,
    /this checkout \/ abc1234: x0\.948 instructions per request \(rounds: 0\.952, 0\.948, 0\.622\)/,
  );
  assert.doesNotMatch(formatInstructions([{ label: "one", rounds: [1000] }]), / \/ /);
});

Deno.test("newestDump: the highest-numbered requested dump, never the one written at exit", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.throws(() => newestDump(dir), /no dump/);
    for (const name of ["callgrind.out.12345", "callgrind.out.12345.2", "callgrind.out.12345.10"]) {
      await Deno.writeTextFile(`${dir}/${name}`, "");
    }
    assert.equal(newestDump(dir), "callgrind.out.12345.10");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
