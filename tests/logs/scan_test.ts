import assert from "node:assert/strict";
import { findings } from "./scan.ts";
import { secretsOfEnv, withoutFirstKey } from "./collect.ts";

const run = (lines: string[], secrets: string[] = []) => ({ source: "harness", lines, secrets });

Deno.test("scan: a known secret of any run, anywhere in any run's lines, is found", () => {
  const found = findings([
    run(["ok line"], ["sk-a", "pw-1234567"]),
    run(["INFO request key=sk-a", "deployment gpt-a@openai-a", "a risk-a b", "pw-1234567!"]),
  ]);
  assert.deepEqual(found.map((f) => [f.line, f.why]), [
    ["INFO request key=sk-a", "a known secret"],
    ["pw-1234567!", "a known secret"],
  ]);
});

Deno.test("scan: key material by its shape, and the sink's redaction", () => {
  const lines = [
    "auth gth_abcdefghij_Secret-Secret",
    'upstream said "Incorrect API key provided: sk-proj-ABCDEFGH"',
    "Authorization: Bearer abcdefgh123",
    '{"x-api-key":"whatever-value-1"}',
    "WARN oops [redacted]",
    "INFO request req_1 /v1/chat/completions 200 ok key=k7x2m9q4ab/alice model=gpt-5",
    "task-runner risk-free gth_ hint gth_k7x2m9q4…",
  ];
  assert.deepEqual(findings([run(lines)]).map((f) => f.why), [
    "gatehouse key",
    "provider key",
    "bearer credential",
    "authorization header",
    "redacted by the sink",
  ]);
});

Deno.test("collect: credentials of an environment, and the first-key notice taken out", () => {
  assert.deepEqual(
    secretsOfEnv({
      OPENAI_API_KEY: "sk-upstream-openai",
      OPENAI_A_KEY: "sk-a",
      GATEHOUSE_METRICS_KEY_LABELS: "1",
      DB_PASSWORD: "hunter2hunter2",
      PORT: "0",
    }),
    ["sk-upstream-openai", "sk-a", "hunter2hunter2"],
  );
  const notice = "No API keys existed, so an admin key was created (id abc). It is shown once; " +
    "store it now:\n\n    gth_abcdefghij_SECRET\n\nIt may call the admin API";
  const { text, keys } = withoutFirstKey(`before\n${notice}\nafter`);
  assert.deepEqual(keys, ["gth_abcdefghij_SECRET"]);
  assert.ok(!text.includes("SECRET") && text.includes("before") && text.includes("after"));
});
