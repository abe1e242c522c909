// @ts-check
/**
 * Claude Code: the `env` block of `~/.claude/settings.json` (the file's values win over the
 * shell's). One authentication scheme only: `ANTHROPIC_AUTH_TOKEN`, never `ANTHROPIC_API_KEY`.
 * @module
 */
import * as path from "node:path";
import { SetupError } from "../common.mjs";
import { getJsonPath, removeJsonPath, setJsonPath } from "../jsonc.mjs";
import { CHECK_PROMPT } from "../plan.mjs";

const SLOTS = /** @type {const} */ ([
  "ANTHROPIC_DEFAULT_OPUS_MODEL",
  "ANTHROPIC_DEFAULT_SONNET_MODEL",
  "ANTHROPIC_DEFAULT_HAIKU_MODEL",
  "CLAUDE_CODE_SUBAGENT_MODEL",
]);
const DISCOVERY = "CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY";

/** @type {import("../plan.mjs").Client} */
export const claudeCode = {
  title: "Claude Code",
  files: (env, home) => [
    path.join(env.CLAUDE_CONFIG_DIR || path.join(home, ".claude"), "settings.json"),
  ],
  plan: (context) => Promise.resolve(planClaudeCode(context)),
};

/**
 * @param {import("../plan.mjs").Context} context
 * @returns {import("../plan.mjs").Plan}
 */
function planClaudeCode(context) {
  const { options, catalog, root, key, env } = context;
  const file = /** @type {string} */ (context.files[0]);
  const defaults = catalog.setupDefaults;
  const mode = options.mode ?? "native";
  const claudeIds = catalog.models.filter((m) =>
    /^(claude|anthropic)/.test(m.id) && m.supported_endpoint_types.includes("anthropic")
  );
  if (
    mode === "native" && claudeIds.length === 0 &&
    !catalog.patterns.some((p) => /^claude/.test(p.pattern))
  ) {
    throw new SetupError(
      "--mode native: this gateway serves no Claude models, so the ids Claude Code sends would " +
        "not be found. Use --mode remapped to map its slots onto the catalog's models.",
    );
  }
  /** @type {Record<string, string> | null} */
  const slots = mode === "remapped"
    ? {
      ANTHROPIC_DEFAULT_OPUS_MODEL: defaults.flagship,
      ANTHROPIC_DEFAULT_SONNET_MODEL: defaults.previous,
      ANTHROPIC_DEFAULT_HAIKU_MODEL: defaults.previous_mini,
      CLAUDE_CODE_SUBAGENT_MODEL: defaults.previous_mini,
    }
    : null;

  /** @type {import("../plan.mjs").FileChange["apply"]} */
  const apply = (before, say) => {
    let text = before === null || before.trim() === "" ? "{}\n" : before;
    const env = (/** @type {string} */ name) => ["env", name];
    if (getJsonPath(text, env("ANTHROPIC_API_KEY"), file) !== undefined) {
      say(
        "removed ANTHROPIC_API_KEY from the env block: Claude Code authenticates with " +
          "ANTHROPIC_AUTH_TOKEN only (two schemes make it warn of an auth conflict).",
      );
    }
    text = setJsonPath(text, env("ANTHROPIC_BASE_URL"), root, file);
    text = options.keyFromEnv
      ? removeJsonPath(text, env("ANTHROPIC_AUTH_TOKEN"), file)
      : setJsonPath(text, env("ANTHROPIC_AUTH_TOKEN"), key, file);
    text = removeJsonPath(text, env("ANTHROPIC_API_KEY"), file);
    for (const slot of SLOTS) {
      text = slots === null
        ? removeJsonPath(text, env(slot), file)
        : setJsonPath(text, env(slot), slots[slot], file);
    }
    if (slots !== null) text = setJsonPath(text, ["model"], "sonnet", file);
    if (options.discovery === true) text = setJsonPath(text, env(DISCOVERY), "1", file);
    if (options.discovery === false) text = removeJsonPath(text, env(DISCOVERY), file);
    return text;
  };

  /** @type {string[]} */
  const warnings = [];
  if (env.ANTHROPIC_API_KEY) {
    warnings.push(
      "ANTHROPIC_API_KEY is exported in this shell: Claude Code would then hold two credentials " +
        "and warn of an auth conflict. Unset it (and remove it from your shell profile).",
    );
  }
  const checkModel = slots?.ANTHROPIC_DEFAULT_SONNET_MODEL ?? claudeIds[0]?.id ?? "claude-sonnet-5";
  /** @type {string[]} */
  const next = [];
  if (options.keyFromEnv) {
    next.push(
      "No key was written: export it where Claude Code starts, " +
        "export ANTHROPIC_AUTH_TOKEN=<your gatehouse key>",
    );
  }
  next.push(
    slots === null
      ? "Native mode: Claude Code sends its own Claude model ids, which the gateway serves."
      : `Remapped: opus → ${defaults.flagship}, sonnet → ${defaults.previous}, haiku and ` +
        `subagents → ${defaults.previous_mini}; the default model is sonnet.`,
  );
  if (options.discovery === true) {
    next.push("Model discovery is on: /model lists the gateway's Claude ids.");
  }
  next.push("Start it with: claude");
  return {
    changes: [{ file, apply, secret: !options.keyFromEnv }],
    ids: slots === null ? [] : [...new Set(Object.values(slots))],
    endpoint: "anthropic",
    check: {
      path: "/v1/messages",
      headers: { "anthropic-version": "2023-06-01" },
      body: {
        model: checkModel,
        max_tokens: 16,
        messages: [{ role: "user", content: CHECK_PROMPT }],
      },
    },
    warnings,
    next,
  };
}
