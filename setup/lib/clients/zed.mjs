// @ts-check
/**
 * Zed: `settings.json` gets an OpenAI-compatible provider whose api_url is the gateway root
 * plus /v1, listing the catalog's chat models. Zed reads the key from the environment variable
 * it derives from the provider id (`gatehouse` → GATEHOUSE_API_KEY) or its keychain; never from
 * settings.json, so the key is not written.
 * @module
 */
import * as path from "node:path";
import { setJsonPath } from "../jsonc.mjs";
import { chatModels, CHECK_PROMPT } from "../plan.mjs";

/** @type {import("../plan.mjs").Client} */
export const zed = {
  title: "Zed",
  files: (env, home, platform) => [
    platform === "win32"
      ? path.join(env.APPDATA || path.join(home, "AppData", "Roaming"), "Zed", "settings.json")
      : path.join(env.XDG_CONFIG_HOME || path.join(home, ".config"), "zed", "settings.json"),
  ],
  plan: (context) => Promise.resolve(planZed(context)),
};

/**
 * The variable Zed reads an OpenAI-compatible provider's key from: the id in upper snake case
 * plus `_API_KEY`.
 * @param {string} id
 * @returns {string}
 */
export function zedKeyVariable(id) {
  return `${id.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase()}_API_KEY`;
}

/**
 * @param {import("../plan.mjs").Context} context
 * @returns {import("../plan.mjs").Plan}
 */
function planZed(context) {
  const { catalog, root, options } = context;
  const file = /** @type {string} */ (context.files[0]);
  const id = options.providerId;
  const models = chatModels(catalog);
  const available = models.map((m) => ({
    name: m.id,
    display_name: m.display_name,
    max_tokens: m.context_window ?? 128_000,
    ...(m.max_output_tokens === null ? {} : { max_output_tokens: m.max_output_tokens }),
    capabilities: {
      tools: true,
      images: m.input_modalities.includes("image"),
      parallel_tool_calls: false,
      prompt_cache_key: false,
    },
  }));
  const provider = ["language_models", "openai_compatible", id];
  /** @type {import("../plan.mjs").FileChange["apply"]} */
  const apply = (before) => {
    let text = before === null || before.trim() === "" ? "{}\n" : before;
    text = setJsonPath(text, [...provider, "api_url"], `${root}/v1`, file);
    return setJsonPath(text, [...provider, "available_models"], available, file);
  };
  const variable = zedKeyVariable(id);
  return {
    changes: [{ file, apply, secret: false }],
    ids: models.map((m) => m.id),
    endpoint: "openai",
    check: {
      path: "/v1/chat/completions",
      headers: {},
      body: {
        model: models[0]?.id ?? catalog.setupDefaults.flagship,
        messages: [{ role: "user", content: CHECK_PROMPT }],
        max_completion_tokens: 16,
      },
    },
    warnings: [],
    next: [
      `Zed reads the key from ${variable}: export ${variable}=<your gatehouse key> where Zed ` +
      `starts, or paste it under Settings → AI → LLM Providers → ${id} (Zed keeps it in the ` +
      "system keychain). The key is never written to settings.json.",
      `Then pick a ${id} model in the agent panel.`,
    ],
  };
}
