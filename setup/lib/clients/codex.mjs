// @ts-check
/**
 * Codex: `$CODEX_HOME/config.toml` selects a `[model_providers.<id>]` table whose base_url is
 * the gateway root (Codex appends /responses itself), and the key goes to `auth.json` only.
 * @module
 */
import * as path from "node:path";
import { getJsonPath, setJsonPath } from "../jsonc.mjs";
import { CHECK_PROMPT } from "../plan.mjs";
import { setTomlKey } from "../toml.mjs";
import { scanToml } from "../toml_scan.mjs";

/** @type {import("../plan.mjs").Client} */
export const codex = {
  title: "Codex",
  files: (env, home) => {
    const dir = env.CODEX_HOME || path.join(home, ".codex");
    return [path.join(dir, "config.toml"), path.join(dir, "auth.json")];
  },
  plan: (context) => Promise.resolve(planCodex(context)),
};

/**
 * @param {import("../plan.mjs").Context} context
 * @returns {import("../plan.mjs").Plan}
 */
function planCodex(context) {
  const { options, catalog, root, key } = context;
  const [configFile, authFile] = /** @type {[string, string]} */ (context.files);
  const id = options.providerId;
  const flagship = catalog.setupDefaults.flagship;
  /** @type {string[]} */
  const warnings = [];

  /** @type {import("../plan.mjs").FileChange["apply"]} */
  const config = (before, say) => {
    let text = before ?? "";
    const profile = scanToml(text, configFile).find((s) =>
      s.kind === "key" && s.table.length === 0 && s.path.join(".") === "profile"
    );
    if (profile) {
      say(
        `config.toml selects a profile (${text.slice(profile.valueStart, profile.valueEnd)}); a ` +
          "profile's own model or model_provider overrides the ones written here.",
      );
    }
    text = setTomlKey(text, [], "model", flagship, configFile);
    text = setTomlKey(text, [], "model_provider", id, configFile);
    const table = ["model_providers", id];
    text = setTomlKey(text, table, "name", "gatehouse", configFile);
    text = setTomlKey(text, table, "base_url", root, configFile);
    text = setTomlKey(text, table, "wire_api", "responses", configFile);
    text = setTomlKey(text, table, "requires_openai_auth", true, configFile);
    return setTomlKey(text, table, "supports_websockets", false, configFile);
  };

  /** @type {import("../plan.mjs").FileChange["apply"]} */
  const auth = (before, say) => {
    let text = before === null || before.trim() === "" ? "{}\n" : before;
    if (getJsonPath(text, ["tokens"], authFile) !== undefined) {
      say(
        "auth.json also holds a ChatGPT sign-in; auth_mode is now apikey so Codex sends the " +
          "gatehouse key (`codex login` signs in again; --rollback restores the file).",
      );
    }
    text = setJsonPath(text, ["auth_mode"], "apikey", authFile);
    return setJsonPath(text, ["OPENAI_API_KEY"], key, authFile);
  };

  return {
    changes: [
      { file: configFile, apply: config, secret: false },
      { file: authFile, apply: auth, secret: true },
    ],
    ids: [flagship],
    endpoint: "openai",
    check: {
      path: "/v1/responses",
      headers: {},
      body: { model: flagship, input: CHECK_PROMPT, max_output_tokens: 16, store: false },
    },
    warnings,
    next: [
      `Codex calls ${root}/responses: base_url is the root, without /v1, and websockets are off ` +
      "(the gateway serves Responses over HTTP).",
      "Start it with: codex",
    ],
  };
}
