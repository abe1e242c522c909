import assert from "node:assert/strict";
import {
  COMPARE_ROUNDS,
  isScaleRun,
  parseSettings,
  POLICY_ROUNDS,
  POLICY_SCENARIOS,
  POLICY_TARGETS,
  selectScenarios,
} from "./settings.ts";
import { SCENARIOS } from "./scenarios.ts";

Deno.test("selectScenarios: every scenario by default; policied runs on every scenario", () => {
  assert.equal(selectScenarios(undefined), SCENARIOS);
  for (const scenario of SCENARIOS) {
    assert.ok(scenario.targets.includes("policied"), scenario.id);
    // A translated scenario's direct and proxy figures are its baseline's.
    assert.equal(scenario.targets.includes("proxy"), scenario.kind === "passthrough", scenario.id);
  }
});

Deno.test("selectScenarios: policies is the comparison's scenarios on its targets only", () => {
  const selected = selectScenarios(["policies"]);
  assert.deepEqual(selected.map((s) => s.id).sort(), [...POLICY_SCENARIOS].sort());
  for (const scenario of selected) assert.deepEqual(scenario.targets, POLICY_TARGETS);
  // The shared scenario objects keep their targets.
  assert.ok(SCENARIOS.every((s) => s.kind !== "passthrough" || s.targets.includes("proxy")));
});

Deno.test("selectScenarios: a scenario named by id keeps every target; baselines come along", () => {
  const selected = selectScenarios(["policies", "chat-json", "messages-to-chat"]);
  const byId = new Map(selected.map((s) => [s.id, s]));
  assert.ok(byId.get("chat-json")!.targets.includes("proxy"));
  assert.ok(byId.get("chat-stream")!.targets.includes("proxy")); // baseline of messages-to-chat
  assert.deepEqual(byId.get("messages-stream")!.targets, POLICY_TARGETS);
  assert.ok(byId.has("messages-to-chat"));
  assert.throws(() => selectScenarios(["nope"]), /unknown scenario nope; known: .*policies/);
});

Deno.test("parseSettings: rounds default to 3 for --only=policies alone, 1 otherwise", () => {
  assert.equal(parseSettings(["--only=policies"]).rounds, POLICY_ROUNDS);
  assert.equal(parseSettings(["--only=policies", "--rounds=5"]).rounds, 5);
  assert.equal(parseSettings(["--only=policies,chat-json"]).rounds, 1);
  assert.equal(parseSettings([]).rounds, 1);
  assert.throws(() => parseSettings(["--rounds=0"]), /--rounds/);
});

Deno.test("parseSettings: --target picks the profiled key", () => {
  assert.equal(parseSettings(["--profile=chat-json"]).profileTarget, "gatehouse");
  const policied = parseSettings(["--profile=chat-json", "--target=policied"]);
  assert.equal(policied.profileTarget, "policied");
  assert.equal(policied.profile?.id, "chat-json");
  assert.throws(() => parseSettings(["--target=proxy"]), /--target/);
});

Deno.test("isScaleRun: --only=scale alone picks the scale-out bench", () => {
  assert.equal(isScaleRun(["--only=scale", "--seconds=5"]), true);
  assert.equal(isScaleRun(["--only=policies"]), false);
  assert.equal(isScaleRun([]), false);
});

Deno.test("parseSettings: --gc names the scenario whose garbage collection is traced", () => {
  const settings = parseSettings(["--gc=messages-json", "--target=policied", "--concurrency=8"]);
  assert.equal(settings.gc?.id, "messages-json");
  assert.equal(settings.profile, null);
  assert.equal(settings.profileTarget, "policied");
  assert.equal(settings.profileConcurrency, 8);
  assert.equal(parseSettings([]).gc, null);
  assert.throws(() => parseSettings(["--gc=nope"]), /unknown scenario nope/);
});

Deno.test("parseSettings: --allocations names the scenario whose allocations are sampled", () => {
  const settings = parseSettings(["--allocations=chat-json", "--target=policied"]);
  assert.equal(settings.allocations?.id, "chat-json");
  assert.equal(settings.profile, null);
  assert.equal(settings.gc, null);
  assert.equal(settings.profileTarget, "policied");
  assert.equal(parseSettings([]).allocations, null);
  assert.throws(() => parseSettings(["--allocations=nope"]), /unknown scenario nope/);
});

Deno.test("parseSettings: --compare names a commit, 8 rounds by default, on chat JSON or --only's", () => {
  const settings = parseSettings(["--compare=HEAD~2"]);
  assert.equal(settings.compare, "HEAD~2");
  assert.equal(settings.rounds, COMPARE_ROUNDS);
  assert.equal(settings.compareScenario.id, "chat-json");
  const messages = parseSettings(["--compare=abc123", "--only=messages-json", "--rounds=3"]);
  assert.equal(messages.compareScenario.id, "messages-json");
  assert.equal(messages.rounds, 3);
  assert.equal(parseSettings([]).compare, null);
  assert.throws(() => parseSettings(["--compare="]), /--compare needs a commit/);
});

Deno.test("parseSettings: --instructions takes a scenario, --requests a round, 4 rounds", () => {
  const settings = parseSettings(["--instructions=messages-json", "--target=policied"]);
  assert.equal(settings.instructions?.id, "messages-json");
  assert.equal(settings.profileTarget, "policied");
  assert.equal(settings.requests, 3000);
  assert.equal(settings.rounds, 4);
  assert.equal(parseSettings(["--instructions=chat-json", "--rounds=2"]).rounds, 2);
  assert.equal(parseSettings(["--instructions=chat-json", "--requests=500"]).requests, 500);
  assert.throws(() => parseSettings(["--requests=0"]), /--requests must be a whole number/);
  assert.throws(() => parseSettings(["--instructions=nope"]), /unknown scenario nope/);
});

Deno.test("parseSettings: --target=proxy only with --instructions", () => {
  assert.equal(
    parseSettings(["--instructions=chat-json", "--target=proxy"]).profileTarget,
    "proxy",
  );
  assert.throws(() => parseSettings(["--profile=chat-json", "--target=proxy"]), /--target must be/);
});
