import assert from "node:assert/strict";
import {
  addCalls,
  commandDeltas,
  parseCommandStats,
  perRequest,
  respCommand,
} from "./redis_stats.ts";

const BEFORE = `# Commandstats\r
cmdstat_evalsha:calls=100,usec=2000,usec_per_call=20.00,rejected_calls=0,failed_calls=0\r
cmdstat_info:calls=3,usec=1642,usec_per_call=547.33,rejected_calls=0,failed_calls=0\r
cmdstat_client|setname:calls=2,usec=4,usec_per_call=2.00,rejected_calls=0,failed_calls=0\r
`;
const AFTER = `# Commandstats\r
cmdstat_evalsha:calls=2100,usec=42000,usec_per_call=20.00,rejected_calls=0,failed_calls=0\r
cmdstat_publish:calls=5,usec=10,usec_per_call=2.00,rejected_calls=0,failed_calls=0\r
cmdstat_info:calls=4,usec=2000,usec_per_call=500.00,rejected_calls=0,failed_calls=0\r
cmdstat_client|setname:calls=2,usec=4,usec_per_call=2.00,rejected_calls=0,failed_calls=0\r
`;

Deno.test("parseCommandStats: calls per command, sub-commands kept", () => {
  const calls = parseCommandStats(BEFORE);
  assert.deepEqual([...calls], [
    ["evalsha", { calls: 100, usec: 2000 }],
    ["info", { calls: 3, usec: 1642 }],
    ["client|setname", { calls: 2, usec: 4 }],
  ]);
  assert.equal(parseCommandStats("# Commandstats\r\n").size, 0);
});

Deno.test("commandDeltas: new calls per request, most first, info and idle commands left out", () => {
  const deltas = commandDeltas(parseCommandStats(BEFORE), parseCommandStats(AFTER), 1000);
  assert.deepEqual(deltas, [
    { command: "evalsha", calls: 2000, perRequest: 2, usec: 40000 },
    { command: "publish", calls: 5, perRequest: 0.005, usec: 10 },
  ]);
  const idle = commandDeltas(new Map(), new Map([["get", { calls: 1, usec: 1 }]]), 0);
  assert.ok(Number.isNaN(idle[0]!.perRequest));
});

Deno.test("respCommand: an array of bulk strings", () => {
  assert.equal(
    new TextDecoder().decode(respCommand(["INFO", "commandstats"])),
    "*2\r\n$4\r\nINFO\r\n$12\r\ncommandstats\r\n",
  );
});

Deno.test("perRequest: round trips are client commands, executed counts the scripts' too", () => {
  const deltas = [
    { command: "evalsha", calls: 2000, perRequest: 2, usec: 60_000 },
    { command: "zadd", calls: 6000, perRequest: 6, usec: 6_000 },
    { command: "publish", calls: 10, perRequest: 0.01, usec: 20 },
  ];
  assert.deepEqual(perRequest(deltas, 1000), { roundTrips: 2.01, executed: 8.01, usec: 60.02 });
});

Deno.test("addCalls: the calls of several slices summed, what came between left out", () => {
  const before = parseCommandStats(BEFORE);
  const after = parseCommandStats(AFTER);
  const total = addCalls(new Map(), before, after);
  // Between the slices 50 more EVALSHA (another target's turn): not counted.
  const later = new Map([...after, ["evalsha", { calls: 2150, usec: 43000 }]]);
  const end = new Map([...later, ["evalsha", { calls: 2250, usec: 45000 }]]);
  addCalls(total, later, end);
  assert.deepEqual(total.get("evalsha"), { calls: 2100, usec: 42000 });
  assert.deepEqual(total.get("publish"), { calls: 5, usec: 10 });
  const deltas = commandDeltas(new Map(), total, 2100);
  assert.deepEqual(deltas.map((d) => d.command), ["evalsha", "publish"]);
  assert.equal(deltas[0]!.perRequest, 1);
});
