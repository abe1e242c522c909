import assert from "node:assert/strict";
import { parseArgs, usage } from "./cli.mjs";

Deno.test("parseArgs reads the client and options in both spellings", () => {
  const options = parseArgs([
    "claude-code",
    "--mode=remapped",
    "--key",
    "k",
    "--discovery",
    "--dry-run",
  ]);
  assert.equal(options.client, "claude-code");
  assert.equal(options.mode, "remapped");
  assert.equal(options.key, "k");
  assert.equal(options.discovery, true);
  assert.equal(options.dryRun, true);
  assert.equal(options.providerId, "gatehouse");
  assert.equal(parseArgs(["codex", "--key="]).key, "");
});

Deno.test("parseArgs refuses unknown clients and options, and options of another client", () => {
  assert.throws(() => parseArgs([]), /name the client/);
  assert.throws(() => parseArgs(["vim"]), /unknown client "vim"/);
  assert.throws(() => parseArgs(["codex", "--nope"]), /unknown option --nope/);
  assert.throws(
    () => parseArgs(["codex", "--mode", "native"]),
    /--mode applies to claude-code only/,
  );
  assert.throws(() => parseArgs(["claude-code", "--mode", "fast"]), /native or remapped/);
  assert.throws(() => parseArgs(["codex", "--key"]), /--key needs a value/);
  assert.throws(() => parseArgs(["zed", "--provider-id", "a.b"]), /letters, digits/);
  assert.throws(() => parseArgs(["codex", "--alt", "--base-url", "x"]), /give one/);
  assert.equal(parseArgs(["--help"]).help, true);
});

Deno.test("usage shows the served addresses and the reserved alternative root", () => {
  const text = usage({
    baseUrl: "https://api.example.com",
    docsUrl: "https://docs.example.com",
    altBaseUrl: "https://alt.example.com",
    altActive: false,
  });
  assert.match(text, /else https:\/\/api\.example\.com\)/);
  assert.match(text, /https:\/\/alt\.example\.com \(reserved: not active yet\)/);
});
