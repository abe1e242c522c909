/**
 * `tpm` counts the input estimate (ceil(body bytes / 4)) at admission and settles each request
 * to its real input + output tokens: the next request sees the remaining tokens computed from
 * real usage. A request that does not fit is refused with a retry-after that is honest; one
 * that can never fit is refused without one. Every protocol, passthrough and translated.
 */
import assert from "node:assert/strict";
import {
  bodyFor,
  clockAt,
  envelopeOf,
  readStream,
  refusalType,
  ROUTES,
  startGov,
  until,
  type Wire,
  words,
} from "./gov_kit.ts";

const T0 = Date.UTC(2031, 0, 1, 0, 0, 0);
const clock = clockAt(T0);
const gov = await startGov({ clock, pace: { delayMs: 1 } });
const TPM = 1_000;

const estimate = (body: unknown) => Math.ceil(JSON.stringify(body).length / 4);

function remainingTokens(wire: Wire, response: Response): number {
  const name = wire === "messages"
    ? "anthropic-ratelimit-tokens-remaining"
    : "x-ratelimit-remaining-tokens";
  return Number(response.headers.get(name));
}

/** A body of `wire` whose estimate is exactly `tokens` (padded on a second line: the upstream
 * echoes only the first). */
function bodyOfEstimate(wire: Wire, model: string, tokens: number): Record<string, unknown> {
  const base = JSON.stringify(bodyFor(wire, model, { text: "Hi\n" })).length;
  const body = bodyFor(wire, model, { text: `Hi\n${"x".repeat(tokens * 4 - base)}` });
  assert.equal(estimate(body), tokens);
  return body;
}

for (const route of ROUTES) {
  const { wire, model } = route;
  Deno.test(`${route.name}: tpm counts the estimate, then the real tokens`, async () => {
    const key = await gov.key({ tpm: TPM });
    const rows = () => gov.rows(key.id);
    const real = () => rows().reduce((sum, r) => sum + r.inputTokens + r.outputTokens, 0);
    const t = T0 + 5_000;
    clock.t = t;

    // Admission counts the estimate.
    const b1 = bodyFor(wire, model, { text: words(30) });
    const r1 = await gov.send(wire, key.secret, b1);
    assert.equal(r1.status, 200);
    assert.equal(remainingTokens(wire, r1), TPM - estimate(b1));
    await r1.json();
    assert.ok(await until(() => rows().length === 1));
    const row1 = rows()[0]!;
    assert.notEqual(row1.inputTokens + row1.outputTokens, estimate(b1), "real ≠ estimate");

    // A stream: admitted against the real figure of the first; settles to its own.
    const b2 = bodyFor(wire, model, { stream: true, text: words(10) });
    const r2 = await gov.send(wire, key.secret, b2);
    assert.equal(r2.status, 200);
    assert.equal(remainingTokens(wire, r2), TPM - real() - estimate(b2));
    assert.equal((await readStream(wire, r2)).ending, "clean");
    assert.ok(await until(() => rows().length === 2));

    // The usage report agrees: every entry is real now.
    const usage = await (await gov.get("/v1/usage", key.secret)).json();
    assert.equal(usage.rate_limits.tokens.remaining, TPM - real());
    assert.equal(usage.rate_limits.tokens.limit, TPM);

    // One token more than is left: refused until the window's entries (at t) leave it.
    clock.t = t + 15_000;
    const tooMuch = bodyOfEstimate(wire, model, TPM - real() + 1);
    const refused = await gov.send(wire, key.secret, tooMuch);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("retry-after"), "45");
    assert.equal(remainingTokens(wire, refused), TPM - real());
    const error = envelopeOf(wire, await refused.json());
    assert.equal(error.type, refusalType(wire, "rate_limit"));
    assert.match(error.message, new RegExp(`${TPM} tokens per minute \\(tpm\\); ${real()} were`));
    assert.match(error.message, new RegExp(`needs about ${estimate(tooMuch)}\\. Retry in 45 s`));
    // Honest retry-after: 45 s later the entries made at t have left, and it fits.
    clock.t = t + 60_000;
    const later = await gov.send(wire, key.secret, tooMuch);
    assert.equal(later.status, 200);
    assert.equal(remainingTokens(wire, later), TPM - estimate(tooMuch));
    await later.json();
    assert.ok(await until(() => rows().length === 4));
    const inWindow = rows()[3]!.inputTokens + rows()[3]!.outputTokens;

    // The window's edge: a request of exactly the tokens left fits, one token more does not.
    const exact = bodyOfEstimate(wire, model, TPM - inWindow);
    const edge = await gov.send(wire, key.secret, exact);
    assert.equal(edge.status, 200);
    assert.equal(remainingTokens(wire, edge), 0);
    await edge.json();
    assert.ok(await until(() => rows().length === 5));
    const over = await gov.send(wire, key.secret, bodyFor(wire, model));
    assert.equal(over.status, 429);
    await over.body?.cancel();

    // Larger than the limit itself: it can never fit, so no retry-after.
    const never = bodyOfEstimate(wire, model, TPM + 1);
    const hopeless = await gov.send(wire, key.secret, never);
    assert.equal(hopeless.status, 429);
    assert.equal(hopeless.headers.get("retry-after"), null);
    assert.match(envelopeOf(wire, await hopeless.json()).message, /can never fit/);
  });
}

Deno.test("tpm: close", async () => {
  await gov.close();
});
