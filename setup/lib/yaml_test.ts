import assert from "node:assert/strict";
import { setContinueModels } from "./yaml.mjs";

const F = "config.yaml";
const ENTRY = {
  name: "GPT (gatehouse)",
  provider: "openai",
  model: "gpt-5",
  roles: ["chat", "edit"],
};
const BLOCK = (indent: string) =>
  `${indent}# >>> gatehouse models (written by gatehouse-setup: re-run it to update, --rollback to undo)\n` +
  `${indent}- name: "GPT (gatehouse)"\n${indent}  provider: openai\n${indent}  model: "gpt-5"\n` +
  `${indent}  roles:\n${indent}    - chat\n${indent}    - edit\n${indent}# <<< gatehouse models\n`;

Deno.test("setContinueModels creates a minimal config", () => {
  assert.equal(
    setContinueModels(null, [ENTRY], F),
    `name: Local Config\nversion: 1.0.0\nschema: v1\nmodels:\n${BLOCK("  ")}`,
  );
});

Deno.test("setContinueModels inserts its block at the list's own indentation", () => {
  const text =
    "name: Mine\n# my models\nmodels:\n    - name: Local\n      provider: ollama\nrules:\n  - be brief\n";
  assert.equal(
    setContinueModels(text, [ENTRY], F),
    `name: Mine\n# my models\nmodels:\n${
      BLOCK("    ")
    }    - name: Local\n      provider: ollama\nrules:\n  - be brief\n`,
  );
  const flush = "models:\n- name: Local\n";
  assert.equal(setContinueModels(flush, [ENTRY], F), `models:\n${BLOCK("")}- name: Local\n`);
});

Deno.test("setContinueModels replaces its own block only; a re-run changes nothing", () => {
  const first = setContinueModels("name: x\nmodels:\n  - name: Local\n", [ENTRY], F);
  assert.equal(setContinueModels(first, [ENTRY], F), first);
  const other = { ...ENTRY, model: "gpt-6" };
  assert.equal(
    setContinueModels(first, [other], F),
    first.replace('model: "gpt-5"', 'model: "gpt-6"'),
  );
});

Deno.test("setContinueModels handles models: [], a missing key and CRLF", () => {
  assert.equal(
    setContinueModels("name: x\nmodels: []\n", [ENTRY], F),
    `name: x\nmodels:\n${BLOCK("  ")}`,
  );
  assert.equal(setContinueModels("name: x", [ENTRY], F), `name: x\nmodels:\n${BLOCK("  ")}`);
  const crlf = setContinueModels("name: x\r\nmodels:\r\n", [ENTRY], F);
  assert.equal(crlf, `name: x\r\nmodels:\r\n${BLOCK("  ").replaceAll("\n", "\r\n")}`);
});

Deno.test("setContinueModels refuses a one-line list and a lone marker", () => {
  assert.throws(() => setContinueModels("models: [{name: a}]\n", [ENTRY], F), /one-line value/);
  assert.throws(
    () => setContinueModels("models:\n  # >>> gatehouse models\n  - name: a\n", [ENTRY], F),
    /only one of/,
  );
});
