import assert from "node:assert/strict";
import { presentedKey } from "../../routes/auth.ts";
import { BEARER, keySources } from "../../routes/security.ts";
import { keyProblem } from "./key.mjs";

Deno.test("keyProblem refuses empty, whitespace, line breaks and placeholders, naming which", () => {
  assert.match(keyProblem("", "--key") ?? "", /from --key is empty/);
  assert.match(keyProblem("gth_a b", "--key") ?? "", /whitespace/);
  assert.match(keyProblem(" gth_ab_cd", "--key") ?? "", /whitespace/);
  assert.match(keyProblem("gth_ab_cd\n", "GATEHOUSE_API_KEY") ?? "", /line break/);
  for (
    const placeholder of [
      "<key>",
      "<your gatehouse key>",
      "$GATEHOUSE_API_KEY",
      "${KEY}",
      "{{key}}",
      "%KEY%",
      "your-api-key",
      "YOUR_KEY",
      "gth_...",
      "sk-xxxx",
      "xxxx",
      "[key]",
    ]
  ) {
    assert.match(keyProblem(placeholder, "--key") ?? "", /placeholder/, placeholder);
  }
  assert.equal(keyProblem("gth_2c6j3rdjyr_twUEGDK4K9HijR3fOPwG5W10od7rSN0z", "--key"), null);
  assert.equal(keyProblem("sk-proj-abc123", "--key"), null);
});

Deno.test("every placeholder the gateway refuses, the script refuses too", () => {
  const forms = [
    "<key>",
    "${GATEHOUSE_API_KEY}",
    "$OPENAI_API_KEY",
    "{{ key }}",
    "%API_KEY%",
    "my-key",
    "your_api_key",
    "sk-xxx",
    "gth_...",
  ];
  for (const form of forms) {
    const gateway = presentedKey(
      new Headers({ authorization: `Bearer ${form}` }),
      keySources(BEARER),
    );
    if ("problem" in gateway && /placeholder/.test(gateway.problem)) {
      assert.notEqual(keyProblem(form, "--key"), null, form);
    }
  }
});
