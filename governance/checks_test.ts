import assert from "node:assert/strict";
import { GatewayError } from "../core/errors.ts";
import { type Ask, checkModels, refusal } from "./checks.ts";
import { Scope } from "./scope.ts";
import { modelWith } from "./testing.ts";

Deno.test("checks: models allow the catalog id, the requested id or the body's model", () => {
  const model = { ...modelWith("gpt-5-mini"), requested: "fast" };
  checkModels({ models: ["gpt-5-*"] }, null, model, {});
  checkModels({ models: ["fast"] }, null, model, {});
  checkModels({}, { id: "t", policy: { models: ["f*"] } }, modelWith("x"), { model: "fast" });
  assert.throws(
    () => checkModels({}, { id: "t", policy: { models: ["claude-*"] } }, model, {}),
    (error) => error instanceof GatewayError && error.code === "model_not_allowed",
  );
});

Deno.test("checks: a spent budget is reported before a full rpm window", async () => {
  const scope = new Scope("key", "key_a");
  const policy = { rpm: 1, budgetUsd: 1 };
  scope.align(policy);
  await scope.budget?.load("total", 0, () => Promise.resolve(1));
  scope.requests?.push(0);
  let built = 0;
  const ask: Ask = {
    now: 1_000,
    expected: { inputTokens: 10, outputTokens: 10, reservationUsd: 0.5, whole: false },
    countsTokens: true,
    headers: () => {
      built++;
      return {};
    },
  };
  assert.equal(refusal({ scope, policy }, null, ask)?.kind, "quota");
  assert.equal(refusal({ scope, policy: { rpm: 1 } }, null, ask)?.kind, "rate_limit");
  assert.equal(built, 2, "headers are built only to refuse");
  scope.align({ rpm: 2 });
  assert.equal(refusal({ scope, policy: { rpm: 2 } }, null, ask), null);
  assert.equal(built, 2);
});
