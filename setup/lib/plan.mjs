// @ts-check
/**
 * The shape every client module returns: which files change and how, which ids must be in
 * the catalog, and the live request that proves the written configuration works.
 * @module
 */

/**
 * @typedef {object} Options
 * @property {string} client
 * @property {string | undefined} key
 * @property {string | undefined} baseUrl
 * @property {boolean} alt
 * @property {"native" | "remapped" | undefined} mode
 * @property {boolean | undefined} discovery
 * @property {boolean} keyFromEnv
 * @property {string} providerId
 * @property {boolean} dryRun
 * @property {boolean} rollback
 * @property {boolean} help
 */

/**
 * @typedef {object} Context
 * @property {string} root The gateway root.
 * @property {string} key
 * @property {import("./gateway.mjs").LiveCatalog} catalog
 * @property {Options} options
 * @property {Record<string, string | undefined>} env
 * @property {string[]} files The client's files, as `files()` named them (symlinks resolved).
 */

/**
 * @typedef {object} FileChange
 * @property {string} file
 * @property {(before: string | null, say: (warning: string) => void) => string} apply The new
 *   text; `say` reports a warning about what the file held.
 * @property {boolean} secret The file holds the key: written with mode 0600.
 */

/**
 * @typedef {object} Plan
 * @property {FileChange[]} changes
 * @property {string[]} ids Model ids written, each checked against the live catalog.
 * @property {"openai" | "anthropic"} endpoint The routes the client calls.
 * @property {import("./gateway.mjs").LiveRequest} check The request sent after writing.
 * @property {string[]} warnings
 * @property {string[]} next What the user does next.
 */

/**
 * @typedef {object} Client
 * @property {string} title
 * @property {(env: Record<string, string | undefined>, home: string, platform: string) => string[]} files
 * @property {(context: Context) => Promise<Plan>} plan
 */

/**
 * The catalog's chat models (OpenAI routes, text out, not special-purpose), the flagship first.
 * @param {import("./gateway.mjs").LiveCatalog} catalog
 * @returns {import("./gateway.mjs").CatalogModel[]}
 */
export function chatModels(catalog) {
  const chat = catalog.models.filter((m) =>
    m.supported_endpoint_types.includes("openai") && m.output_modalities.includes("text") &&
    !m.special_purpose
  );
  const flagship = catalog.setupDefaults.flagship;
  return [
    ...chat.filter((m) => m.id === flagship || m.aliases.includes(flagship)),
    ...chat.filter((m) => !(m.id === flagship || m.aliases.includes(flagship))),
  ];
}

/** The prompt of every post-write live check. */
export const CHECK_PROMPT = "Reply with the single word: ready";
