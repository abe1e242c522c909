import assert from "node:assert/strict";
import { bundleSetupScript, renderEntryScript, shellQuote } from "./bundle.ts";

const served = {
  baseUrl: "https://api.example.com",
  docsUrl: "https://docs.example.com",
  altBaseUrl: "https://alt.example.com",
  altActive: false,
};

/** Whether a real Node is on PATH: Deno puts its own stand-in `node` (itself) first on the PATH
 * of what it runs. */
function hasRealNode(): boolean {
  const deno = Deno.realPathSync(Deno.execPath());
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      return Deno.realPathSync(`${dir}/node`) !== deno;
    } catch {
      return false;
    }
  });
}

async function syntaxCheck(command: string, args: string[], text: string, suffix: string) {
  const file = await Deno.makeTempFile({ suffix });
  try {
    await Deno.writeTextFile(file, text);
    const out = await new Deno.Command(command, { args: [...args, file], stderr: "piped" })
      .output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("the bundle is one module with SERVED filled in, every lib module, no relative import", async () => {
  const script = await bundleSetupScript(served);
  assert.ok(script.startsWith("#!/usr/bin/env node\n"));
  assert.ok(script.includes(`const SERVED = ${JSON.stringify(served)};`));
  assert.doesNotMatch(script, /from "\.\.?\//);
  assert.doesNotMatch(script, /^export /m);
  for (
    const module of ["lib/jsonc.mjs", "lib/clients/codex.mjs", "lib/run.mjs", "gatehouse_setup.mjs"]
  ) {
    assert.ok(script.includes(`// ---- setup/${module}`), module);
  }
  const imports = script.split("\n").filter((line) => line.startsWith("import "));
  assert.equal(new Set(imports).size, imports.length);
});

// Without a real Node, a spawned `node` is Deno itself, which runs a script instead of checking it.
const NODE_CHECK = "the bundle parses as a Node ES module (node --check)";
Deno.test({
  name: hasRealNode()
    ? NODE_CHECK
    : `${NODE_CHECK} (skipped: node is not installed; enable with: apt-get install -y nodejs)`,
  ignore: !hasRealNode(),
  async fn() {
    const check = await syntaxCheck("node", ["--check"], await bundleSetupScript(served), ".mjs");
    assert.equal(check.code, 0, check.stderr);
  },
});

const read = (files: Record<string, string>) => (path: string) =>
  Promise.resolve(files[path] ?? "");

Deno.test("the bundle joins imports that deno fmt wrapped over several lines", async () => {
  const script = await bundleSetupScript(
    served,
    read({
      "gatehouse_setup.mjs": 'import {\n  a,\n  b,\n} from "./lib/a.mjs";\nconsole.log(a, b);\n',
      "lib/a.mjs": "export const a = 1;\nexport const b = 2;\n",
    }),
  );
  assert.match(script, /const a = 1;\nconst b = 2;\n[\s\S]*console\.log\(a, b\);/);
  assert.doesNotMatch(script, /import|^\s+[ab],$/m);
});

Deno.test("the bundle refuses forms it cannot join", async () => {
  await assert.rejects(
    bundleSetupScript(served, read({ "gatehouse_setup.mjs": "export default 1;\n" })),
    /cannot keep "export default 1;"/,
  );
  await assert.rejects(
    bundleSetupScript(
      served,
      read({
        "gatehouse_setup.mjs": 'import * as fs from "node:fs";\nimport { x } from "./a.mjs";\n',
        "a.mjs": 'import { readFile } from "node:fs";\nexport const x = 1;\n',
      }),
    ),
    /imports node:fs as/,
  );
});

Deno.test("each sh entry point names its client and the served script, and parses", async () => {
  for (const client of ["claude-code", "codex", "continue", "zed"] as const) {
    const text = await renderEntryScript(client, "https://docs.example.com/it's");
    assert.match(text, new RegExp(`node "\\$file" ${client} "\\$@"`));
    assert.ok(
      text.includes(
        `script_url=${shellQuote("https://docs.example.com/it's/setup/gatehouse-setup.mjs")}`,
      ),
    );
    assert.doesNotMatch(text, /@@/);
    const check = await syntaxCheck("sh", ["-n"], text, ".sh");
    assert.equal(check.code, 0, check.stderr);
  }
  assert.equal(shellQuote("a'b"), `'a'\\''b'`);
});
