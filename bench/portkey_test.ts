import assert from "node:assert/strict";
import { PORTKEY_DIR, PORTKEY_VERSION, portkeyHeaders } from "./portkey.ts";

Deno.test("portkey: its routing headers send each wire to the fake upstream's /v1", () => {
  assert.deepEqual(portkeyHeaders("openai", "http://127.0.0.1:4000"), {
    "x-portkey-provider": "openai",
    "x-portkey-custom-host": "http://127.0.0.1:4000/v1",
  });
  assert.equal(
    portkeyHeaders("anthropic", "http://127.0.0.1:4000")["x-portkey-provider"],
    "anthropic",
  );
});

Deno.test("portkey: without Node it is skipped, saying why, and nothing is installed", async () => {
  const dir = await Deno.makeTempDir();
  // A child with no PATH cannot find node: the bench must say so rather than fail.
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { installPortkey } from ${
        JSON.stringify(new URL("./portkey.ts", import.meta.url).href)
      };` +
      `console.log(JSON.stringify(await installPortkey(${JSON.stringify(`${dir}/`)})));`,
    ],
    env: { PATH: "/nonexistent" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout).trim();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const answer = JSON.parse(text);
  assert.match(answer.skipped, /Portkey needs Node: node is not installed/);
  assert.deepEqual([...Deno.readDirSync(dir)], []);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("portkey: pinned, and installed under bench/ (ignored by git)", async () => {
  assert.match(PORTKEY_VERSION, /^\d+\.\d+\.\d+$/);
  assert.ok(PORTKEY_DIR.endsWith("/bench/.portkey/"));
  const ignored = await Deno.readTextFile(new URL("../.gitignore", import.meta.url));
  assert.ok(ignored.split("\n").includes("bench/.portkey/"));
});
