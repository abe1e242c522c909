/**
 * The Claude Code set-up script against a live gateway, in a temporary HOME: exact edits of an
 * existing settings.json, idempotence, rollback, modes, discovery, --key-from-env, dry run.
 */
import assert from "node:assert/strict";
import { backupsOf, startDocsEnv } from "./docs_env.ts";

const ORIGINAL = `{
  "permissions": {
    "allow": ["Bash(npm test)"]
  },
  "env": {
    "MY_VAR": "keep me",
    "ANTHROPIC_API_KEY": "sk-ant-old"
  },
  "theme": "dark"
}
`;

Deno.test("claude-code --mode remapped edits only its keys, is idempotent, and rolls back", async () => {
  const env = await startDocsEnv();
  try {
    const file = `${env.home}/.claude/settings.json`;
    await Deno.mkdir(`${env.home}/.claude`);
    await Deno.writeTextFile(file, ORIGINAL);
    Deno.chmodSync(file, 0o644);
    const d = env.harness.deps.catalog.setupDefaults;
    const args = ["claude-code", "--mode", "remapped", "--key", env.key];
    const first = await env.run(args, { env: { ANTHROPIC_API_KEY: "sk-ant-shell" } });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(
      await Deno.readTextFile(file),
      `{
  "permissions": {
    "allow": ["Bash(npm test)"]
  },
  "env": {
    "MY_VAR": "keep me",
    "ANTHROPIC_BASE_URL": "${env.api}",
    "ANTHROPIC_AUTH_TOKEN": "${env.key}",
    "ANTHROPIC_DEFAULT_OPUS_MODEL": "${d.flagship}",
    "ANTHROPIC_DEFAULT_SONNET_MODEL": "${d.previous}",
    "ANTHROPIC_DEFAULT_HAIKU_MODEL": "${d.previous_mini}",
    "CLAUDE_CODE_SUBAGENT_MODEL": "${d.previous_mini}"
  },
  "theme": "dark",
  "model": "sonnet"
}
`,
    );
    assert.equal(Deno.statSync(file).mode! & 0o777, 0o600);
    assert.match(first.stdout, /✓ GET .*\/v1\/models: key accepted/);
    assert.match(first.stdout, new RegExp(`every id to write is in the catalog: ${d.flagship}`));
    assert.match(first.stdout, /removed ANTHROPIC_API_KEY from the env block/);
    assert.match(first.stdout, /ANTHROPIC_API_KEY is exported in this shell/);
    assert.match(
      first.stdout,
      new RegExp(`✓ live check: POST /v1/messages with ${d.previous} answered 200`),
    );
    assert.ok(
      !first.stdout.includes(env.key) && !first.stderr.includes(env.key),
      "the key is never printed",
    );
    const [backup] = backupsOf(file);
    assert.ok(backup, "a timestamped backup beside the file");
    assert.equal(await Deno.readTextFile(`${env.home}/.claude/${backup}`), ORIGINAL);
    assert.equal(Deno.statSync(`${env.home}/.claude/${backup}`).mode! & 0o777, 0o644);

    const written = await Deno.readTextFile(file);
    const second = await env.run(args);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /settings\.json: already up to date/);
    assert.equal(await Deno.readTextFile(file), written);
    assert.equal(backupsOf(file).length, 1);

    const undo = await env.run(["claude-code", "--rollback"]);
    assert.equal(undo.code, 0, undo.stderr);
    assert.match(undo.stdout, /✓ restored: .*settings\.json/);
    assert.equal(await Deno.readTextFile(file), ORIGINAL);
    assert.equal(Deno.statSync(file).mode! & 0o777, 0o644);
    assert.deepEqual(backupsOf(file), []);
    const nothing = await env.run(["claude-code", "--rollback"]);
    assert.equal(nothing.code, 1);
    assert.match(nothing.stderr, /no gatehouse backup found/);
  } finally {
    await env.close();
  }
});

Deno.test("claude-code native after remapped drops the slots; --discovery; --key-from-env", async () => {
  const env = await startDocsEnv();
  try {
    const file = `${env.home}/.claude/settings.json`;
    assert.equal((await env.run(["claude-code", "--mode", "remapped", "--key", env.key])).code, 0);
    const remapped = await Deno.readTextFile(file);
    const native = await env.run([
      "claude-code",
      "--mode",
      "native",
      "--discovery",
      "--key-from-env",
    ], {
      env: { ANTHROPIC_AUTH_TOKEN: env.key },
    });
    assert.equal(native.code, 0, native.stderr);
    assert.match(native.stdout, /key {6}gth_\w+_… \(from ANTHROPIC_AUTH_TOKEN\)/);
    assert.match(native.stdout, /export ANTHROPIC_AUTH_TOKEN=<your gatehouse key>/);
    assert.match(native.stdout, /✓ live check: POST \/v1\/messages with claude-\S+ answered 200/);
    const settings = JSON.parse(await Deno.readTextFile(file));
    assert.deepEqual(settings.env, {
      ANTHROPIC_BASE_URL: env.api,
      CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: "1",
    });
    assert.ok(!(await Deno.readTextFile(file)).includes(env.key));

    assert.equal((await env.run(["claude-code", "--rollback"])).code, 0);
    assert.equal(await Deno.readTextFile(file), remapped);
    const last = await env.run(["claude-code", "--rollback"]);
    assert.match(last.stdout, /removed \(it did not exist before\)/);
    await assert.rejects(Deno.stat(file), Deno.errors.NotFound);
  } finally {
    await env.close();
  }
});

Deno.test("claude-code --dry-run under Deno prints the change with the key hidden, writes nothing", async () => {
  const env = await startDocsEnv();
  try {
    const run = await env.run(["claude-code", "--mode", "remapped", "--dry-run"], {
      runtime: "deno",
      env: { GATEHOUSE_API_KEY: env.key },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /settings\.json: would create \(mode 0600\)/);
    assert.match(run.stdout, /\+ {5}"ANTHROPIC_AUTH_TOKEN": "gth_\w+_…",/);
    assert.match(run.stdout, /dry run: nothing was written/);
    assert.ok(!run.stdout.includes(env.key));
    assert.deepEqual([...Deno.readDirSync(env.home)], []);
  } finally {
    await env.close();
  }
});
