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
  Object.assign(orphan, { code: "57P01" });
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

Deno.test("driver guard: a socket reset no code holds is recognised; other errors are not", () => {
  const reset = new Error("read ECONNRESET");
  reset.stack = "Error: read ECONNRESET\n    at TCPWrap.onStreamRead [as onread] " +
    "(ext:deno_node/internal/stream_base_commons.ts:1:3690)";
  assert.equal(isDriverOrphanRejection(reset), true);
  const ours = new Error("read ECONNRESET");
  ours.stack = `${reset.stack}\n    at readBody (file:///x/http1/body.ts:10:3)`;
  assert.equal(isDriverOrphanRejection(ours), false, "it passed through gatehouse code");
  const bug = new Error("Cannot read properties of undefined");
  bug.stack = "Error: Cannot read properties of undefined\n    at f (ext:core/01_core.js:1:1)";
  assert.equal(isDriverOrphanRejection(bug), false, "not a connection error");
  const syntax = new Error('syntax error at or near "SELEC"');
  syntax.name = "PostgresError";
  Object.assign(syntax, { code: "42601" });
  syntax.stack = "PostgresError: x\n    at ErrorResponse (file:///x/node_modules/.deno/" +
    "postgres@3.4.9/node_modules/postgres/src/connection.js:815:30)";
  assert.equal(isDriverOrphanRejection(syntax), false, "a query error is not a dropped connection");
});

Deno.test("driver guard: frames from the global npm cache's layout count as the driver's", () => {
  const crash = new TypeError("Cannot read properties of null (reading 'write')");
  crash.stack = `${crash.message}\n    at write (file:///root/.cache/deno/npm/registry.npmjs.org/` +
    "postgres/3.4.9/src/connection.js:258:22)";
  assert.equal(isDriverSocketCrash(crash), true);
});
