import assert from "node:assert/strict";
import { isDriverOrphanRejection, isDriverSocketCrash } from "./driver_guard.ts";

Deno.test("driver guard: only the driver's write-after-close TypeError is recognised", () => {
  const crash = new TypeError("Cannot read properties of null (reading 'write')");
  crash.stack = `${crash.message}\n    at write (file:///x/node_modules/.deno/postgres@3.4.9/` +
    "node_modules/postgres/src/connection.js:258:22)";
  assert.equal(isDriverSocketCrash(crash), true);
  const elsewhere = new TypeError(crash.message);
  elsewhere.stack = `${crash.message}\n    at write (file:///x/gateway/meter.ts:1:1)`;
  assert.equal(isDriverSocketCrash(elsewhere), false);
  const other = new TypeError("x is not a function");
  other.stack = crash.stack;
  assert.equal(isDriverSocketCrash(other), false);
  assert.equal(isDriverSocketCrash(new Error(crash.message)), false);
});

Deno.test("driver guard: a server error left in a driver-only promise is recognised", () => {
  const driver = "file:///x/node_modules/.deno/postgres@3.4.9/node_modules/postgres/src/";
  const orphan = new Error("terminating connection due to administrator command");
  orphan.name = "PostgresError";
  orphan.stack =
    `PostgresError: ${orphan.message}\n    at ErrorResponse (${driver}connection.js:815:30)` +
    `\n    at handle (${driver}connection.js:489:6)` +
    "\n    at Socket.emit (ext:deno_node/_events.mjs:4:461)";
  assert.equal(isDriverOrphanRejection(orphan), true);
  const ours = new Error(orphan.message);
  ours.name = "PostgresError";
  ours.stack = `${orphan.stack}\n    at write (file:///x/store/postgres/ledger.ts:212:7)`;
  assert.equal(isDriverOrphanRejection(ours), false, "it passed through gatehouse code");
  const plain = new Error("boom");
  plain.stack = `Error: boom\n    at f (${driver}connection.js:1:1)`;
  assert.equal(isDriverOrphanRejection(plain), false);
});
