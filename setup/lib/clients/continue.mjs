// @ts-check
/**
 * Continue: `~/.continue/config.yaml` gets the catalog's chat models as OpenAI-provider entries
 * whose apiBase is the gateway root plus /v1 (Continue appends /chat/completions to it).
 * @module
 */
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { SetupError } from "../common.mjs";
import { chatModels, CHECK_PROMPT } from "../plan.mjs";
import { setContinueModels } from "../yaml.mjs";

/** @type {import("../plan.mjs").Client} */
export const continueDev = {
  title: "Continue",
  files: (env, home) => [
    path.join(env.CONTINUE_GLOBAL_DIR || path.join(home, ".continue"), "config.yaml"),
  ],
  plan: planContinue,
};

/**
 * @param {import("../plan.mjs").Context} context
 * @returns {Promise<import("../plan.mjs").Plan>}
 */
async function planContinue(context) {
  const { catalog, root, key } = context;
  const file = /** @type {string} */ (context.files[0]);
  const legacy = path.join(path.dirname(file), "config.json");
  if (!(await present(file)) && await present(legacy)) {
    throw new SetupError(
      `${legacy} exists and config.yaml does not: Continue reads config.yaml instead of ` +
        "config.json once it exists, so writing it would hide your configuration. Move your " +
        "settings to config.yaml first (Continue's YAML migration guide), then run again.",
    );
  }
  const models = chatModels(catalog);
  const entries = models.map((m) => ({
    name: `${m.display_name} (gatehouse)`,
    provider: "openai",
    model: m.id,
    apiBase: `${root}/v1`,
    apiKey: key,
    roles: ["chat", "edit", "apply"],
    capabilities: m.input_modalities.includes("image") ? ["tool_use", "image_input"] : ["tool_use"],
  }));
  const flagship = models[0]?.id ?? catalog.setupDefaults.flagship;
  return {
    changes: [{ file, apply: (before) => setContinueModels(before, entries, file), secret: true }],
    ids: models.map((m) => m.id),
    endpoint: "openai",
    check: {
      path: "/v1/chat/completions",
      headers: {},
      body: {
        model: flagship,
        messages: [{ role: "user", content: CHECK_PROMPT }],
        max_completion_tokens: 16,
      },
    },
    warnings: [],
    next: ['Continue reloads config.yaml on save: pick a "(gatehouse)" model in its model menu.'],
  };
}

/**
 * @param {string} file
 * @returns {Promise<boolean>}
 */
async function present(file) {
  try {
    await fs.stat(file);
    return true;
  } catch {
    return false;
  }
}
