import assert from "node:assert/strict";
import { scalarValue, setTomlKey } from "./toml.mjs";
import { scanToml } from "./toml_scan.mjs";

const F = "config.toml";
const USER = `# my codex config
model = "o3" # old choice
approval_policy = "on-request"

[projects."/home/me/repo"]
trust_level = "trusted"

[mcp_servers.docs]
command = "npx"
args = [
  "-y",
  "[not a header]",
]
env = { A = "1" }
notes = """
[also not a header]
"""
`;

Deno.test("setTomlKey rewrites a value in place, keeping its comment", () => {
  const out = setTomlKey(USER, [], "model", "gpt-5.5-large", F);
  assert.equal(
    out,
    USER.replace('model = "o3" # old choice', 'model = "gpt-5.5-large" # old choice'),
  );
});

Deno.test("setTomlKey adds a top-level key after the last top-level key", () => {
  const out = setTomlKey(USER, [], "model_provider", "gatehouse", F);
  assert.equal(
    out,
    USER.replace(
      'approval_policy = "on-request"\n',
      'approval_policy = "on-request"\nmodel_provider = "gatehouse"\n',
    ),
  );
});

Deno.test("setTomlKey appends a missing table and fills it", () => {
  let out = setTomlKey(USER, ["model_providers", "gatehouse"], "name", "gatehouse", F);
  out = setTomlKey(out, ["model_providers", "gatehouse"], "requires_openai_auth", true, F);
  assert.equal(
    out,
    `${USER}\n[model_providers.gatehouse]\nname = "gatehouse"\nrequires_openai_auth = true\n`,
  );
});

Deno.test("setTomlKey adds to an existing table before the next header", () => {
  const text = '[model_providers.gatehouse]\nname = "g"\n\n[other]\nx = 1\n';
  assert.equal(
    setTomlKey(text, ["model_providers", "gatehouse"], "wire_api", "responses", F),
    '[model_providers.gatehouse]\nname = "g"\nwire_api = "responses"\n\n[other]\nx = 1\n',
  );
});

Deno.test("setTomlKey leaves an equal value as written, quotes included", () => {
  const text = "[t]\nname = 'gatehouse'\nflag = true\n";
  assert.equal(setTomlKey(text, ["t"], "name", "gatehouse", F), text);
  assert.equal(setTomlKey(text, ["t"], "flag", true, F), text);
});

Deno.test("setTomlKey puts a first top-level key above the first table", () => {
  assert.equal(setTomlKey("[a]\nx = 1\n", [], "model", "m", F), 'model = "m"\n\n[a]\nx = 1\n');
  assert.equal(setTomlKey("", [], "model", "m", F), 'model = "m"\n');
  assert.equal(setTomlKey("x = 1", [], "model", "m", F), 'x = 1\nmodel = "m"\n');
});

Deno.test("setTomlKey refuses dotted or inline definitions of its table", () => {
  assert.throws(
    () =>
      setTomlKey(
        'model_providers = { gatehouse = { name = "x" } }\n',
        ["model_providers", "gatehouse"],
        "name",
        "g",
        F,
      ),
    /inline table/,
  );
  assert.throws(
    () =>
      setTomlKey(
        'model_providers.gatehouse.name = "x"\n',
        ["model_providers", "gatehouse"],
        "name",
        "g",
        F,
      ),
    /dotted key/,
  );
  assert.throws(
    () =>
      setTomlKey(
        '[model_providers]\ngatehouse = { name = "x" }\n',
        ["model_providers", "gatehouse"],
        "name",
        "g",
        F,
      ),
    /inline table/,
  );
});

Deno.test("scanToml skips multi-line strings and arrays; rejects junk", () => {
  const tables = scanToml(USER, F).filter((s) => s.kind === "table").map((s) => s.path.join("."));
  assert.deepEqual(tables, ["projects./home/me/repo", "mcp_servers.docs"]);
  assert.throws(() => scanToml("this is not toml\n", F), /line 1: expected = after the key/);
  assert.throws(() => scanToml('a = "open\n', F), /unterminated string/);
});

Deno.test("scalarValue normalizes strings and booleans only", () => {
  assert.equal(scalarValue('"a\\"b"'), JSON.stringify('a"b'));
  assert.equal(scalarValue("'lit'"), '"lit"');
  assert.equal(scalarValue("false"), "false");
  assert.equal(scalarValue("[1]"), null);
});
