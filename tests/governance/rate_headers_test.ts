/**
 * Rate-limit headers on every response, in each route family's own form, with the right values:
 * a whole answer, a stream and a 429 (OpenAI routes `x-ratelimit-{limit,remaining,reset}-
 * {requests,tokens}`, the reset a Go duration; Messages routes `anthropic-ratelimit-{requests,
 * tokens}-{limit,remaining,reset}`, the reset an RFC 3339 time). Passthrough and translated.
 */
import assert from "node:assert/strict";
import {
  bodyFor,
  clockAt,
  readStream,
  ROUTES,
  startGov,
  until,
  type Wire,
  words,
} from "./gov_kit.ts";

const T0 = Date.UTC(2031, 0, 1, 0, 0, 0);
const clock = clockAt(T0);
const gov = await startGov({ clock, pace: { delayMs: 1 } });
const RPM = 3;
const TPM = 10_000;

/** The six headers of `wire`'s family, as one object (absent ones null). */
function limits(wire: Wire, response: Response) {
  const h = (name: string) => response.headers.get(name);
  return wire === "messages"
    ? {
      requests: [
        h("anthropic-ratelimit-requests-limit"),
        h("anthropic-ratelimit-requests-remaining"),
      ],
      requestsReset: h("anthropic-ratelimit-requests-reset"),
      tokens: [h("anthropic-ratelimit-tokens-limit"), h("anthropic-ratelimit-tokens-remaining")],
      tokensReset: h("anthropic-ratelimit-tokens-reset"),
      other: h("x-ratelimit-limit-requests"),
    }
    : {
      requests: [h("x-ratelimit-limit-requests"), h("x-ratelimit-remaining-requests")],
      requestsReset: h("x-ratelimit-reset-requests"),
      tokens: [h("x-ratelimit-limit-tokens"), h("x-ratelimit-remaining-tokens")],
      tokensReset: h("x-ratelimit-reset-tokens"),
      other: h("anthropic-ratelimit-requests-limit"),
    };
}

/** ceil(body bytes / 4): the admission's input estimate. */
const estimate = (body: unknown) => Math.ceil(JSON.stringify(body).length / 4);

/** The reset of a window whose newest entry is at `newest`, seen at `now`, in `wire`'s form. */
function reset(wire: Wire, newest: number, now: number): string {
  if (wire === "messages") {
    return new Date(Math.ceil((newest + 60_000) / 1000) * 1000).toISOString().replace(
      ".000Z",
      "Z",
    );
  }
  const s = (newest + 60_000 - now) / 1000;
  return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
}

for (const route of ROUTES) {
  const { wire, model } = route;
  Deno.test(`${route.name}: rate-limit headers on a whole answer, a stream and a 429`, async () => {
    const key = await gov.key({ rpm: RPM, tpm: TPM });
    const real = () => gov.rows(key.id).reduce((sum, r) => sum + r.inputTokens + r.outputTokens, 0);

    // 1. A whole answer at t1: the window holds its estimate.
    const t1 = T0 + 1_000;
    clock.t = t1;
    const b1 = bodyFor(wire, model, { text: words(20) });
    const r1 = await gov.send(wire, key.secret, b1);
    assert.equal(r1.status, 200);
    await r1.json();
    assert.deepEqual(limits(wire, r1), {
      requests: [String(RPM), String(RPM - 1)],
      requestsReset: reset(wire, t1, t1),
      tokens: [String(TPM), String(TPM - estimate(b1))],
      tokensReset: reset(wire, t1, t1),
      other: null,
    });

    // 2. A stream 10 s later: the first request now counts its real tokens.
    const t2 = t1 + 10_000;
    clock.t = t2;
    assert.ok(await until(() => gov.rows(key.id).length === 1));
    const b2 = bodyFor(wire, model, { stream: true, text: words(10) });
    const r2 = await gov.send(wire, key.secret, b2);
    assert.equal(r2.status, 200);
    assert.deepEqual(limits(wire, r2), {
      requests: [String(RPM), String(RPM - 2)],
      requestsReset: reset(wire, t2, t2),
      tokens: [String(TPM), String(TPM - real() - estimate(b2))],
      tokensReset: reset(wire, t2, t2),
      other: null,
    });
    assert.equal((await readStream(wire, r2)).ending, "clean");
    assert.ok(await until(() => gov.rows(key.id).length === 2));

    // 3. The last request the window admits, then a 429 at the same moment.
    const t3 = t2 + 10_000;
    clock.t = t3;
    const r3 = await gov.send(wire, key.secret, b1);
    assert.equal(r3.status, 200);
    await r3.json();
    assert.equal(limits(wire, r3).requests[1], "0");
    assert.ok(await until(() => gov.rows(key.id).length === 3));
    const r4 = await gov.send(wire, key.secret, b1);
    assert.equal(r4.status, 429);
    await r4.json();
    // The oldest admission (t1) leaves the window 40 s from now.
    assert.equal(r4.headers.get("retry-after"), "40");
    assert.deepEqual(limits(wire, r4), {
      requests: [String(RPM), "0"],
      requestsReset: reset(wire, t3, t3),
      tokens: [String(TPM), String(TPM - real())],
      tokensReset: reset(wire, t3, t3),
      other: null,
    });
  });
}

Deno.test("rate headers: close", async () => {
  await gov.close();
});
