/**
 * `rpm` is an exact sliding window, on every client protocol (passthrough and translated), on
 * the governor's injected clock: the boundary case (N at 0.5 s admitted, the next refused at
 * 59.9 s, admitted again at 60.5 s) and the fixed-window exploit (N at the end of one minute, N
 * at the start of the next) never getting more than N into any 60 seconds. Refusals are 429 in
 * the route's own envelope, with retry-after in whole seconds that is honest: the request sent
 * that many seconds later is admitted.
 */
import assert from "node:assert/strict";
import {
  bodyFor,
  clockAt,
  envelopeOf,
  refusalType,
  ROUTES,
  startGov,
  type Wire,
} from "./gov_kit.ts";

/** A minute boundary: minute 0 of the test starts here. */
const T0 = Date.UTC(2031, 0, 1, 0, 0, 0);
const clock = clockAt(T0);
const gov = await startGov({ clock });
const N = 3;

/** The remaining-requests header of `wire`'s route family. */
function remaining(wire: Wire, response: Response): number {
  const name = wire === "messages"
    ? "anthropic-ratelimit-requests-remaining"
    : "x-ratelimit-remaining-requests";
  return Number(response.headers.get(name));
}

async function send(wire: Wire, model: string, secret: string): Promise<Response> {
  const response = await gov.send(wire, secret, bodyFor(wire, model));
  await response.body?.cancel();
  return response;
}

for (const route of ROUTES) {
  const { wire, model } = route;

  Deno.test(`${route.name}: rpm=${N} at the window's edge: 59.9 s refused, 60.5 s admitted`, async () => {
    const key = await gov.key({ rpm: N });
    clock.t = T0 + 500;
    for (let i = 1; i <= N; i++) {
      const ok = await send(wire, model, key.secret);
      assert.equal(ok.status, 200);
      assert.equal(remaining(wire, ok), N - i, "remaining counts down");
    }
    clock.t = T0 + 59_900;
    const refused = await gov.send(wire, key.secret, bodyFor(wire, model));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "1", "0.6 s to wait, in whole seconds");
    assert.equal(remaining(wire, refused), 0);
    const error = envelopeOf(wire, await refused.json());
    assert.equal(error.type, refusalType(wire, "rate_limit"));
    if (wire !== "messages") assert.equal(error.code, "rate_limit_exceeded");
    assert.match(error.message, new RegExp(`${N} requests per minute \\(rpm\\)`));
    assert.match(error.message, /this key/);
    clock.t = T0 + 60_500;
    const again = await send(wire, model, key.secret);
    assert.equal(again.status, 200, "the first N left the window at 60.5 s");
    assert.equal(remaining(wire, again), N - 1);
    assert.deepEqual(
      gov.rows(key.id).map((row) => row.outcome),
      [...Array(N).fill("ok"), "rejected", "ok"],
    );
  });

  Deno.test(`${route.name}: rpm=${N}: N at the end of a minute and N at the start of the next do not both pass`, async () => {
    const key = await gov.key({ rpm: N });
    const admitted: number[] = [];
    let retryAfter = 0;
    /** A greedy client: N + 1 requests at each step. */
    const burst = async () => {
      for (let i = 0; i <= N; i++) {
        const response = await send(wire, model, key.secret);
        if (response.status === 200) admitted.push(clock.t);
        else {
          assert.equal(response.status, 429);
          retryAfter = Number(response.headers.get("retry-after"));
        }
      }
    };
    clock.t = T0 + 59_000; // the end of minute 0
    await burst();
    assert.equal(admitted.length, N);
    clock.t = T0 + 61_000; // the start of minute 1: a fixed window would admit N more
    await burst();
    assert.equal(admitted.length, N, "no request of the next minute's burst passes");
    assert.equal(retryAfter, 58, "the window frees at 119 s");
    // Honest retry-after: the client that waits exactly that long is admitted.
    clock.t += retryAfter * 1000;
    const retried = await send(wire, model, key.secret);
    assert.equal(retried.status, 200);
    admitted.push(clock.t);
    // Then once a second for two more minutes.
    for (clock.t = T0 + 120_000; clock.t <= T0 + 240_000; clock.t += 1000) await burst();
    // In no 60-second interval are more than N admitted.
    for (const start of admitted) {
      const inWindow = admitted.filter((t) => t >= start && t < start + 60_000).length;
      assert.ok(inWindow <= N, `${inWindow} admitted in the minute from ${start - T0} ms`);
    }
    // And the limit is used: N per minute in each of the minutes after the first burst.
    assert.deepEqual(admitted.map((t) => t - T0), [
      59_000,
      59_000,
      59_000,
      119_000,
      120_000,
      120_000,
      179_000,
      180_000,
      180_000,
      239_000,
      240_000,
      240_000,
    ]);
  });
}

Deno.test("rpm window: close", async () => {
  await gov.close();
});
