// @ts-check
/**
 * Command-line options of the set-up script and its help text.
 * @module
 */
import { SetupError } from "./common.mjs";

/** The clients a set-up exists for. */
export const CLIENT_NAMES = ["claude-code", "codex", "continue", "zed"];

/** @type {Record<string, { value: boolean, clients?: string[] }>} */
const FLAGS = {
  "--key": { value: true },
  "--base-url": { value: true },
  "--alt": { value: false },
  "--mode": { value: true, clients: ["claude-code"] },
  "--discovery": { value: false, clients: ["claude-code"] },
  "--no-discovery": { value: false, clients: ["claude-code"] },
  "--key-from-env": { value: false, clients: ["claude-code"] },
  "--provider-id": { value: true, clients: ["codex", "zed"] },
  "--dry-run": { value: false },
  "--rollback": { value: false },
  "--help": { value: false },
};

/**
 * Parses `<client> [options]`. Throws a `SetupError` for an unknown client or option, a
 * missing value, or an option that does not apply to the client.
 * @param {string[]} argv
 * @returns {import("./plan.mjs").Options}
 */
export function parseArgs(argv) {
  /** @type {Map<string, string | true>} */
  const seen = new Map();
  /** @type {string[]} */
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = /** @type {string} */ (argv[i]);
    if (arg === "-h") {
      seen.set("--help", true);
      continue;
    }
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const flag = FLAGS[name];
    if (flag === undefined) throw new SetupError(`unknown option ${name} (--help lists them).`);
    if (!flag.value) {
      if (eq !== -1) throw new SetupError(`${name} takes no value.`);
      seen.set(name, true);
    } else if (eq !== -1) seen.set(name, arg.slice(eq + 1));
    else {
      const value = argv[++i];
      if (value === undefined) throw new SetupError(`${name} needs a value.`);
      seen.set(name, value);
    }
  }
  const help = seen.has("--help");
  const client = positional[0] ?? "";
  if (!help && !CLIENT_NAMES.includes(client)) {
    throw new SetupError(
      client === ""
        ? `name the client: ${CLIENT_NAMES.join(", ")} (--help for options).`
        : `unknown client "${client}": use ${CLIENT_NAMES.join(", ")}.`,
    );
  }
  if (positional.length > 1) throw new SetupError(`unexpected argument "${positional[1]}".`);
  for (const name of seen.keys()) {
    const only = FLAGS[name]?.clients;
    if (!help && only && !only.includes(client)) {
      throw new SetupError(`${name} applies to ${only.join(" and ")} only, not ${client}.`);
    }
  }
  const text = (/** @type {string} */ name) => {
    const value = seen.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const mode = text("--mode");
  if (mode !== undefined && mode !== "native" && mode !== "remapped") {
    throw new SetupError(`--mode is native or remapped, not "${mode}".`);
  }
  const providerId = text("--provider-id") ?? "gatehouse";
  if (!/^[A-Za-z0-9_-]+$/.test(providerId)) {
    throw new SetupError("--provider-id takes letters, digits, _ and - only.");
  }
  if (seen.has("--discovery") && seen.has("--no-discovery")) {
    throw new SetupError("--discovery and --no-discovery contradict each other.");
  }
  if (seen.has("--alt") && seen.has("--base-url")) {
    throw new SetupError("--alt and --base-url both name the address: give one.");
  }
  return {
    client,
    key: text("--key"),
    baseUrl: text("--base-url"),
    alt: seen.has("--alt"),
    mode,
    discovery: seen.has("--discovery") ? true : seen.has("--no-discovery") ? false : undefined,
    keyFromEnv: seen.has("--key-from-env"),
    providerId,
    dryRun: seen.has("--dry-run"),
    rollback: seen.has("--rollback"),
    help,
  };
}

/**
 * @param {import("./served.mjs").Served} served
 * @returns {string}
 */
export function usage(served) {
  const root = served.baseUrl ?? "(none: pass --base-url)";
  return `gatehouse-setup: point a client at a gatehouse gateway.

usage: gatehouse-setup.mjs <client> [options]     client: ${CLIENT_NAMES.join(", ")}

  --key KEY          the gatehouse key (else $GATEHOUSE_API_KEY, else a hidden prompt,
                     else the first line of standard input)
  --base-url URL     the gateway root, without /v1 (else $GATEHOUSE_BASE_URL, else ${root})
  --alt              the alternative root ${served.altBaseUrl ?? "(none configured)"}${
    served.altBaseUrl && !served.altActive ? " (reserved: not active yet)" : ""
  }
  --dry-run          check live and print what would change; write nothing
  --rollback         restore the files as they were before the latest run
  claude-code:  --mode native|remapped (default native)   --discovery | --no-discovery
                --key-from-env (write no key; export ANTHROPIC_AUTH_TOKEN yourself)
  codex, zed:   --provider-id ID (default gatehouse)

Before writing it checks GET {root}/v1/models with the key; every changed file is backed up
beside itself (.gatehouse-backup-<time>) and written atomically; files holding the key get
mode 0600. Docs: ${served.docsUrl ?? "the gateway's docs host"}
`;
}
