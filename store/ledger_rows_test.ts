import assert from "node:assert/strict";
import { usageRow } from "./store_suite.ts";
import {
  attemptLogJson,
  LEDGER_COLUMNS,
  ledgerValues,
  queuedListed,
  queuedSpends,
  requestRowOf,
} from "./ledger_rows.ts";

Deno.test("queued rows: matched against spend and listing queries like written ones", () => {
  const row = {
    ...usageRow("k1", 2, 100),
    model: "a",
    servedModel: "b",
    outcome: "timeout" as const,
  };
  assert.equal(queuedSpends(row, { keyId: "k1", start: 100 }, null), true);
  assert.equal(queuedSpends(row, { start: 101 }, null), false);
  assert.equal(queuedSpends(row, { team: "t", start: 0 }, new Set(["k2"])), false);
  const window = { start: 0, end: 200 };
  assert.equal(queuedListed(row, { ...window, model: "b" }, null), true);
  assert.equal(queuedListed(row, { ...window, outcome: "ok" }, null), false);
  assert.equal(queuedListed(row, { start: 0, end: 100 }, null), false, "end is exclusive");
  assert.equal(queuedListed(row, { ...window, requestId: row.requestId }, new Set(["k1"])), true);
  assert.deepEqual(requestRowOf(row).attemptLog, []);
  assert.equal(attemptLogJson(row), null);
});

Deno.test("ledger columns: one value per shared column, booleans as the dialect writes them", () => {
  const row = { ...usageRow("k1", 2, 100), stream: true };
  const values = ledgerValues(row, (value) => value ? 1 : 0);
  assert.equal(values.length, LEDGER_COLUMNS.length);
  assert.equal(values[LEDGER_COLUMNS.indexOf("stream")], 1);
  assert.equal(values[LEDGER_COLUMNS.indexOf("time")], 100);
  assert.equal(ledgerValues(row, (value) => value)[LEDGER_COLUMNS.indexOf("stream")], true);
  assert.ok(!LEDGER_COLUMNS.includes("aborted"), "SQLite adds its legacy column itself");
});
