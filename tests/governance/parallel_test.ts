/**
 * `max_parallel` counts requests in flight, streams included, on every protocol (passthrough and
 * translated): with two streams running the next request is refused (429, retry-after 1, in the
 * route's envelope); once a stream ends, a new one is admitted.
 */
import assert from "node:assert/strict";
import {
  bodyFor,
  envelopeOf,
  readStream,
  refusalType,
  ROUTES,
  startGov,
  until,
} from "./gov_kit.ts";

// Streams send two events and then wait for the test to let them go, one by one.
const gov = await startGov({ pace: { delayMs: 1, holdAfterChunks: 2 } });

for (const route of ROUTES) {
  const { wire, model } = route;
  Deno.test(`${route.name}: max_parallel=2 counts streams in flight`, async () => {
    const key = await gov.key({ maxParallel: 2 });
    const stream = bodyFor(wire, model, { stream: true, text: "Hi there" });
    const a = await gov.send(wire, key.secret, stream);
    const b = await gov.send(wire, key.secret, stream);
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    const usage = await (await gov.get("/v1/usage", key.secret)).json();
    assert.deepEqual(usage.rate_limits.parallel, { scope: "key", limit: 2, in_flight: 2 });

    for (const body of [bodyFor(wire, model), stream]) {
      const refused = await gov.send(wire, key.secret, body);
      assert.equal(refused.status, 429, "a third request, whole or streamed, is refused");
      assert.equal(refused.headers.get("retry-after"), "1");
      const error = envelopeOf(wire, await refused.json());
      assert.equal(error.type, refusalType(wire, "rate_limit"));
      assert.match(error.message, /max_parallel is 2, and 2 are running \(streams included\)/);
    }

    // The first stream ends; a new one is admitted in its place, and the limit holds again.
    gov.upstream.releaseOne();
    assert.equal((await readStream(wire, a)).ending, "clean");
    assert.ok(await until(() => gov.rows(key.id).some((row) => row.outcome === "ok")));
    const c = await gov.send(wire, key.secret, stream);
    assert.equal(c.status, 200);
    const d = await gov.send(wire, key.secret, bodyFor(wire, model));
    assert.equal(d.status, 429);
    await d.body?.cancel();

    gov.upstream.release();
    for (const r of [b, c]) assert.equal((await readStream(wire, r)).ending, "clean");
    assert.ok(await until(() => gov.rows(key.id).length === 6));
    assert.deepEqual(
      gov.rows(key.id).map((row) => row.outcome).sort(),
      ["ok", "ok", "ok", "rejected", "rejected", "rejected"],
    );
    const after = await (await gov.get("/v1/usage", key.secret)).json();
    assert.equal(after.rate_limits.parallel.in_flight, 0);
  });
}

Deno.test("max_parallel: close", async () => {
  gov.upstream.release();
  await gov.close();
});
