import assert from "node:assert/strict";
import { durationMs, parseWrk, wrkScript } from "./wrk.ts";

const REPORT = `Running 10s test @ http://127.0.0.1:8080/v1/chat/completions
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     4.25ms    3.15ms  33.95ms   96.30%
    Req/Sec     3.79k   178.42     4.10k    90.00%
  Latency Distribution
     50%  812.00us
     75%    4.50ms
     90%    5.55ms
     99%    1.02s
  75421 requests in 10.01s, 504.95MB read
  Non-2xx or 3xx responses: 7
  Socket errors: connect 0, read 2, write 0, timeout 31
Requests/sec:   7534.57
Transfer/sec:     50.44MB
`;

Deno.test("parseWrk: requests, rate, percentiles in ms, non-2xx and socket errors", () => {
  const result = parseWrk(REPORT);
  assert.equal(result.requests, 75421);
  assert.equal(result.seconds, 10.01);
  assert.equal(result.rps, 7534.57);
  assert.equal(result.p50, 0.812);
  assert.equal(result.p75, 4.5);
  assert.equal(result.p90, 5.55);
  assert.equal(result.p99, 1020);
  assert.equal(result.non2xx, 7);
  assert.deepEqual(result.socketErrors, { connect: 0, read: 2, write: 0, timeout: 31 });
});

Deno.test("parseWrk: a clean run has no non-2xx or socket-error lines", () => {
  const clean = REPORT.split("\n").filter((line) => !/Non-2xx|Socket errors/.test(line)).join(
    "\n",
  );
  const result = parseWrk(clean);
  assert.equal(result.non2xx, 0);
  assert.deepEqual(result.socketErrors, { connect: 0, read: 0, write: 0, timeout: 0 });
});

Deno.test("parseWrk: a report without --latency or totals is an error naming the line", () => {
  assert.throws(() => parseWrk("Requests/sec: 1\n  5 requests in 1.00s, 1KB read"), /50% latency/);
  assert.throws(() => parseWrk("nothing"), /N requests in/);
});

Deno.test("durationMs: every wrk unit", () => {
  assert.equal(durationMs("250us"), 0.25);
  assert.equal(durationMs("2.5ms"), 2.5);
  assert.equal(durationMs("1.5s"), 1500);
  assert.equal(durationMs("2m"), 120_000);
  assert.throws(() => durationMs("fast"), /not a duration/);
});

Deno.test("wrkScript: POST, the body and headers as Lua long strings of a safe level", () => {
  const script = wrkScript('{"a":"]]","b":"\\n"}', { authorization: "Bearer gth_x" });
  assert.match(script, /^wrk\.method = "POST"$/m);
  assert.ok(script.includes('wrk.body = [=[\n{"a":"]]","b":"\\n"}]=]'));
  assert.ok(script.includes("wrk.headers[ [[\nauthorization]] ] = [[\nBearer gth_x]]"));
});
