/**
 * The Codex set-up script against a live gateway: config.toml edited in place (comments, other
 * tables and multi-line values kept), the key only in auth.json, idempotence, rollback.
 */
import assert from "node:assert/strict";
import { backupsOf, startDocsEnv } from "./docs_env.ts";

const CONFIG = `# my codex settings
model = "o3"  # was my default
approval_policy = "on-request"

[projects."/home/me/repo"]
trust_level = "trusted"

[model_providers.other]
name = "Other"
base_url = "https://other.example.com/v1"
env_key = "OTHER_KEY"

[mcp_servers.docs]
command = "npx"
args = [
  "-y",
  "[not-a-table]",
]
`;

Deno.test("codex: config.toml edited in place, key only in auth.json, idempotent, rollback", async () => {
  const env = await startDocsEnv();
  try {
    const dir = `${env.home}/.codex`;
    await Deno.mkdir(dir);
    await Deno.writeTextFile(`${dir}/config.toml`, CONFIG);
    Deno.chmodSync(`${dir}/config.toml`, 0o644);
    const flagship = env.harness.deps.catalog.setupDefaults.flagship;

    const first = await env.run(["codex", "--key", env.key]);
    assert.equal(first.code, 0, first.stderr);
    const config = await Deno.readTextFile(`${dir}/config.toml`);
    assert.equal(
      config,
      CONFIG
        .replace('model = "o3"  # was', `model = "${flagship}"  # was`)
        .replace(
          'approval_policy = "on-request"\n',
          'approval_policy = "on-request"\nmodel_provider = "gatehouse"\n',
        ) +
        `\n[model_providers.gatehouse]\nname = "gatehouse"\nbase_url = "${env.api}"\n` +
        `wire_api = "responses"\nrequires_openai_auth = true\nsupports_websockets = false\n`,
    );
    assert.ok(!config.includes(env.key), "the key never goes into config.toml");
    assert.equal(Deno.statSync(`${dir}/config.toml`).mode! & 0o777, 0o644);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(`${dir}/auth.json`)), {
      auth_mode: "apikey",
      OPENAI_API_KEY: env.key,
    });
    assert.equal(Deno.statSync(`${dir}/auth.json`).mode! & 0o777, 0o600);
    assert.match(
      first.stdout,
      new RegExp(`✓ live check: POST /v1/responses with ${flagship} answered 200`),
    );
    assert.ok(!first.stdout.includes(env.key));

    const auth = await Deno.readTextFile(`${dir}/auth.json`);
    const second = await env.run(["codex"], {
      env: { GATEHOUSE_API_KEY: env.key },
      runtime: "deno",
    });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /config\.toml: already up to date/);
    assert.match(second.stdout, /auth\.json: already up to date/);
    assert.equal(await Deno.readTextFile(`${dir}/config.toml`), config);
    assert.equal(await Deno.readTextFile(`${dir}/auth.json`), auth);
    assert.equal(backupsOf(`${dir}/config.toml`).length, 1);

    const undo = await env.run(["codex", "--rollback"]);
    assert.equal(undo.code, 0, undo.stderr);
    assert.equal(await Deno.readTextFile(`${dir}/config.toml`), CONFIG);
    await assert.rejects(Deno.stat(`${dir}/auth.json`), Deno.errors.NotFound);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["config.toml"]);
  } finally {
    await env.close();
  }
});

Deno.test("codex: an existing ChatGPT sign-in is kept, auth_mode switches, CODEX_HOME is honoured", async () => {
  const env = await startDocsEnv();
  try {
    const dir = `${env.home}/codex-home`;
    await Deno.mkdir(dir);
    const signedIn =
      `{\n  "auth_mode": "chatgpt",\n  "OPENAI_API_KEY": null,\n  "tokens": {\n    "id_token": "x"\n  },\n  "last_refresh": "2026-01-01T00:00:00Z"\n}\n`;
    await Deno.writeTextFile(`${dir}/auth.json`, signedIn);
    const run = await env.run(["codex", "--key", env.key, "--provider-id", "gh-test"], {
      env: { CODEX_HOME: dir },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /auth\.json also holds a ChatGPT sign-in/);
    assert.equal(
      await Deno.readTextFile(`${dir}/auth.json`),
      signedIn.replace('"chatgpt"', '"apikey"').replace(
        '"OPENAI_API_KEY": null',
        `"OPENAI_API_KEY": "${env.key}"`,
      ),
    );
    assert.match(await Deno.readTextFile(`${dir}/config.toml`), /^model_provider = "gh-test"$/m);
    assert.match(await Deno.readTextFile(`${dir}/config.toml`), /^\[model_providers\.gh-test\]$/m);
    assert.equal((await env.run(["codex", "--rollback"], { env: { CODEX_HOME: dir } })).code, 0);
    assert.equal(await Deno.readTextFile(`${dir}/auth.json`), signedIn);
  } finally {
    await env.close();
  }
});
