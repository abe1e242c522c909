/**
 * The Continue and Zed set-up scripts against a live gateway.
 */
import assert from "node:assert/strict";
import { backupsOf, startDocsEnv } from "./docs_env.ts";

const CONTINUE = `name: My Config
version: 0.0.1
schema: v1
# local models first
models:
  - name: Llama local
    provider: ollama
    model: llama3.1:8b
context:
  - provider: code
`;

Deno.test("continue: a marked block of the catalog's chat models, other entries kept", async () => {
  const env = await startDocsEnv();
  try {
    const file = `${env.home}/.continue/config.yaml`;
    await Deno.mkdir(`${env.home}/.continue`);
    await Deno.writeTextFile(file, CONTINUE);
    const run = await env.run(["continue", "--key", env.key]);
    assert.equal(run.code, 0, run.stderr);
    const text = await Deno.readTextFile(file);
    const begin = text.indexOf("  # >>> gatehouse models");
    const end = text.indexOf("  # <<< gatehouse models\n") + "  # <<< gatehouse models\n".length;
    assert.equal(text.slice(0, begin) + text.slice(end), CONTINUE, "everything else byte for byte");
    const block = text.slice(begin, end);
    const chat = env.harness.deps.catalog.listed().filter((m) =>
      m.endpoint_types.includes("openai") && !m.flags.special_purpose &&
      m.output_modalities.includes("text")
    );
    const models = [...block.matchAll(/^ {4}model: "([^"]+)"$/gm)].map((m) => m[1]);
    assert.equal(models[0], env.harness.deps.catalog.setupDefaults.flagship);
    assert.deepEqual([...models].sort(), chat.map((m) => m.id).sort());
    assert.ok(!models.includes("gpt-4o-audio-preview") && !models.includes("gpt-image-1"));
    assert.equal(block.split(`apiBase: "${env.api}/v1"`).length - 1, chat.length);
    assert.equal(block.split(`apiKey: "${env.key}"`).length - 1, chat.length);
    assert.equal(Deno.statSync(file).mode! & 0o777, 0o600);
    assert.match(run.stdout, /live check: POST \/v1\/chat\/completions with \S+ answered 200/);

    const again = await env.run(["continue", "--key", env.key]);
    assert.match(again.stdout, /already up to date/);
    assert.equal(await Deno.readTextFile(file), text);
    assert.equal((await env.run(["continue", "--rollback"])).code, 0);
    assert.equal(await Deno.readTextFile(file), CONTINUE);
    assert.deepEqual(backupsOf(file), []);
  } finally {
    await env.close();
  }
});

Deno.test("continue: refuses to shadow an existing config.json", async () => {
  const env = await startDocsEnv();
  try {
    await Deno.mkdir(`${env.home}/.continue`);
    await Deno.writeTextFile(`${env.home}/.continue/config.json`, "{}");
    const run = await env.run(["continue", "--key", env.key]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /config\.json exists and config\.yaml does not/);
    assert.deepEqual([...Deno.readDirSync(`${env.home}/.continue`)].map((e) => e.name), [
      "config.json",
    ]);
  } finally {
    await env.close();
  }
});

const ZED = `// Zed settings
{
  "theme": "One Dark", // dark
  "language_models": {
    "ollama": { "api_url": "http://localhost:11434" },
  },
}
`;

Deno.test("zed: an OpenAI-compatible provider in JSONC, no key in the file", async () => {
  const env = await startDocsEnv();
  try {
    const file = `${env.home}/.config/zed/settings.json`;
    await Deno.mkdir(`${env.home}/.config/zed`, { recursive: true });
    await Deno.writeTextFile(file, ZED);
    Deno.chmodSync(file, 0o644);
    const run = await env.run(["zed", "--key", env.key]);
    assert.equal(run.code, 0, run.stderr);
    const text = await Deno.readTextFile(file);
    assert.ok(
      text.startsWith(`// Zed settings
{
  "theme": "One Dark", // dark
  "language_models": {
    "ollama": { "api_url": "http://localhost:11434" },
    "openai_compatible": {
      "gatehouse": {
        "api_url": "${env.api}/v1",
        "available_models": [
          {
            "name": "${env.harness.deps.catalog.setupDefaults.flagship}",`),
      text,
    );
    assert.ok(text.endsWith(`      }\n    },\n  },\n}\n`), text);
    assert.ok(!text.includes(env.key));
    assert.equal(Deno.statSync(file).mode! & 0o777, 0o644);
    assert.match(run.stdout, /export GATEHOUSE_API_KEY=<your gatehouse key>/);
    const again = await env.run(["zed", "--key", env.key]);
    assert.match(again.stdout, /already up to date/);
    assert.equal((await env.run(["zed", "--rollback"])).code, 0);
    assert.equal(await Deno.readTextFile(file), ZED);
  } finally {
    await env.close();
  }
});
