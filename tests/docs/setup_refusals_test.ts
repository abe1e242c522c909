/**
 * The set-up script's refusals, each before anything is written: bad keys, a /v1 address, a
 * wrong key, a wrong address, the reserved alternative root, ids missing from the catalog.
 */
import assert from "node:assert/strict";
import { listen, makeHarness } from "../harness.ts";
import { type RunOptions, snapshot, startDocsEnv } from "./docs_env.ts";

Deno.test("refusals name the problem and leave HOME untouched", async () => {
  const env = await startDocsEnv({ altBaseUrl: "https://alt.gatehouse.example" });
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closedUrl = `http://127.0.0.1:${(closed.addr as Deno.NetAddr).port}`;
  closed.close();
  try {
    await Deno.mkdir(`${env.home}/.codex`);
    await Deno.writeTextFile(`${env.home}/.codex/config.toml`, 'model = "o3"\n');
    const before = await snapshot(env.home);
    const cases: [string, string[], RunOptions, RegExp][] = [
      ["empty key", ["codex", "--key", ""], {}, /the key from --key is empty/],
      ["whitespace", ["codex", "--key", "gth_abc def"], {}, /holds whitespace/],
      [
        "line break",
        ["codex"],
        { env: { GATEHOUSE_API_KEY: "gth_abc\ndef" } },
        /from GATEHOUSE_API_KEY holds a line break/,
      ],
      ["empty stdin", ["codex"], { stdin: "" }, /from standard input is empty/],
      ["placeholder", ["codex", "--key", "<your gatehouse key>"], {}, /unsubstituted placeholder/],
      [
        "unexpanded variable",
        ["claude-code"],
        { env: { GATEHOUSE_API_KEY: "$GATEHOUSE_API_KEY" } },
        /placeholder/,
      ],
      [
        "/v1 address",
        ["codex", "--key", env.key, "--base-url", `${env.api}/v1`],
        {},
        /ends in \/v1: give the gateway root \(http:\/\/127\.0\.0\.1:\d+\)\. The clients add \/v1/,
      ],
      ["/v1 from the environment", ["zed", "--key", env.key], {
        env: { GATEHOUSE_BASE_URL: `${env.api}/v1/` },
      }, /GATEHOUSE_BASE_URL ends in \/v1/],
      [
        "wrong key",
        ["codex", "--key", "gth_nosuchkey_0000000000"],
        {},
        /the key is wrong: GET .*\/v1\/models answered 401 \(The API key is not valid/,
      ],
      [
        "connection refused",
        ["codex", "--key", env.key, "--base-url", closedUrl],
        {},
        /the address is wrong: GET .* failed/,
      ],
      [
        "not a gatehouse",
        ["codex", "--key", env.key, "--base-url", env.docs],
        {},
        /the address is wrong: GET .*\/v1\/models answered 404 \(This is the gatehouse docs host/,
      ],
      [
        "reserved alt root",
        ["codex", "--key", env.key, "--alt"],
        {},
        /alternative root https:\/\/alt\.gatehouse\.example is reserved but not active yet/,
      ],
      [
        "unknown mode",
        ["claude-code", "--mode", "bogus", "--key", env.key],
        {},
        /--mode is native or remapped/,
      ],
    ];
    for (const [label, args, options, pattern] of cases) {
      const run = await env.run(args, options);
      assert.equal(run.code, 1, `${label}: ${run.stdout}`);
      assert.match(run.stderr, pattern, label);
      assert.ok(
        !run.stderr.includes(env.key) && !run.stdout.includes(env.key),
        `${label} leaks the key`,
      );
      assert.deepEqual(await snapshot(env.home), before, `${label} wrote something`);
    }
    const viaStdin = await env.run(["codex", "--dry-run"], { stdin: `${env.key}\n` });
    assert.equal(viaStdin.code, 0, viaStdin.stderr);
    assert.match(viaStdin.stdout, /\(from standard input\)/);
  } finally {
    await env.close();
  }
});

Deno.test("ids the script would write must be in the live catalog", async () => {
  // Only the Anthropic provider has a credential: the OpenAI set-up defaults are not listed.
  const h = await makeHarness({ demo: false, env: { ANTHROPIC_API_KEY: "sk-ant-test" } });
  const gateway = listen(h);
  const env = await startDocsEnv();
  try {
    const codex = await env.run(["codex", "--key", h.key, "--base-url", gateway.url]);
    assert.equal(codex.code, 1);
    assert.match(codex.stderr, /does not list "gpt-5\.5-large", which this set-up would write/);
    const remapped = await env.run([
      "claude-code",
      "--mode",
      "remapped",
      "--key",
      h.key,
      "--base-url",
      gateway.url,
    ]);
    assert.equal(remapped.code, 1);
    assert.match(remapped.stderr, /does not list "gpt-5\.5-large"/);
    assert.deepEqual([...Deno.readDirSync(env.home)], []);
  } finally {
    await env.close();
    await gateway.close();
    await h.close();
  }
});

Deno.test("native mode is refused when the gateway serves no Claude model", async () => {
  const h = await makeHarness({ demo: false, env: { OPENAI_API_KEY: "sk-test" } });
  const gateway = listen(h);
  const env = await startDocsEnv();
  try {
    const run = await env.run(["claude-code", "--key", h.key, "--base-url", gateway.url]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /serves no Claude models[\s\S]*--mode remapped/);
  } finally {
    await env.close();
    await gateway.close();
    await h.close();
  }
});
