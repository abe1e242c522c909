// @ts-check
/**
 * The live checks: before writing, `GET {root}/v1/models` with the key (is the key right, is
 * the address a gatehouse, which ids exist); after writing, one minimal request through the
 * client's own route.
 * @module
 */
import { SetupError } from "./common.mjs";

/**
 * @typedef {object} CatalogModel
 * @property {string} id
 * @property {string} display_name
 * @property {string[]} supported_endpoint_types
 * @property {number | null} context_window
 * @property {number | null} max_output_tokens
 * @property {string[]} input_modalities
 * @property {string[]} output_modalities
 * @property {string[]} aliases
 * @property {boolean} special_purpose
 */

/**
 * @typedef {object} LiveCatalog
 * @property {CatalogModel[]} models
 * @property {{ pattern: string }[]} patterns
 * @property {{ flagship: string, previous: string, previous_mini: string }} setupDefaults
 */

const TIMEOUT_MS = 15_000;

/**
 * The gateway's catalog as the key sees it. A 401 means the key is wrong; a connection failure,
 * a route error or a body that is not a gatehouse model list means the address is wrong.
 * @param {string} root
 * @param {string} key
 * @returns {Promise<LiveCatalog>}
 */
export async function fetchCatalog(root, key) {
  const url = `${root}/v1/models`;
  /** @type {Response} */
  let response;
  try {
    response = await fetch(url, {
      headers: { authorization: `Bearer ${key}`, accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new SetupError(
      `the address is wrong: GET ${url} failed (${reason(error)}). Check --base-url / ` +
        "GATEHOUSE_BASE_URL: it must be the gateway root.",
    );
  }
  const text = await response.text();
  if (response.status === 401) {
    throw new SetupError(
      `the key is wrong: GET ${url} answered 401 (${errorMessage(text)}). Check the key, or ask ` +
        "for a new one (deno task keys create).",
    );
  }
  const body = parseJson(text);
  const list = /** @type {{ data?: unknown, setup_defaults?: unknown, patterns?: unknown }} */ (
    body ?? {}
  );
  if (!response.ok || !Array.isArray(list.data) || !isDefaults(list.setup_defaults)) {
    const what = response.ok
      ? "does not look like a gatehouse model list"
      : `answered ${response.status} (${errorMessage(text)})`;
    throw new SetupError(
      `the address is wrong: GET ${url} ${what}. Give the gatehouse root address (the one ` +
        "its docs show), without /v1.",
    );
  }
  return {
    models: /** @type {CatalogModel[]} */ (list.data),
    patterns: Array.isArray(list.patterns) ? list.patterns : [],
    setupDefaults: list.setup_defaults,
  };
}

/**
 * The catalog model an id names (its id or one of its aliases), or undefined.
 * @param {LiveCatalog} catalog
 * @param {string} id
 * @returns {CatalogModel | undefined}
 */
export function findModel(catalog, id) {
  return catalog.models.find((m) => m.id === id || (m.aliases ?? []).includes(id));
}

/**
 * Checks that every id the script will write is listed and answers on `endpoint`.
 * @param {LiveCatalog} catalog
 * @param {string[]} ids
 * @param {string} endpoint `openai` or `anthropic`.
 * @param {string} root
 */
export function requireIds(catalog, ids, endpoint, root) {
  for (const id of ids) {
    const model = findModel(catalog, id);
    if (model === undefined) {
      throw new SetupError(
        `the catalog at ${root} does not list "${id}", which this set-up would write (its ` +
          "setup_defaults name it): either the catalog lacks it, or this key's models policy " +
          "does not allow it (GET /v1/usage shows the key's policy). Ask the gateway's operator " +
          "to fix the catalog or the key.",
      );
    }
    if (!model.supported_endpoint_types.includes(endpoint)) {
      throw new SetupError(
        `"${id}" does not answer on the ${endpoint} routes (it supports ` +
          `${model.supported_endpoint_types.join(", ")}), so this client could not use it.`,
      );
    }
  }
}

/**
 * @typedef {object} LiveRequest
 * @property {string} path e.g. `/v1/messages`.
 * @property {Record<string, string>} headers Extra headers.
 * @property {Record<string, unknown>} body
 */

/**
 * Sends one minimal request and describes the outcome in one line.
 * @param {string} root
 * @param {string} key
 * @param {LiveRequest} request
 * @returns {Promise<{ ok: boolean, summary: string }>}
 */
export async function sendLiveRequest(root, key, request) {
  const label = `POST ${request.path} with ${String(request.body.model)}`;
  try {
    const response = await fetch(`${root}${request.path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        ...request.headers,
      },
      body: JSON.stringify(request.body),
      signal: AbortSignal.timeout(120_000),
    });
    const text = await response.text();
    if (!response.ok) {
      return { ok: false, summary: `${label} answered ${response.status}: ${errorMessage(text)}` };
    }
    const reply = replyText(parseJson(text));
    return {
      ok: true,
      summary: `${label} answered ${response.status}${reply ? `: "${reply}"` : ""}`,
    };
  } catch (error) {
    return { ok: false, summary: `${label} failed: ${reason(error)}` };
  }
}

/**
 * @param {unknown} text
 * @returns {unknown}
 */
function parseJson(text) {
  try {
    return JSON.parse(String(text));
  } catch {
    return null;
  }
}

/**
 * @param {unknown} value
 * @returns {value is { flagship: string, previous: string, previous_mini: string }}
 */
function isDefaults(value) {
  const v = /** @type {Record<string, unknown> | null} */ (value);
  return typeof v === "object" && v !== null && typeof v.flagship === "string" &&
    typeof v.previous === "string" && typeof v.previous_mini === "string";
}

/**
 * The `error.message` of an OpenAI or Anthropic error body, or the start of the text.
 * @param {string} text
 * @returns {string}
 */
function errorMessage(text) {
  const body = /** @type {{ error?: { message?: unknown } } | null} */ (parseJson(text));
  const message = body?.error?.message;
  if (typeof message === "string") return message;
  const flat = text.replace(/\s+/g, " ").trim();
  return flat === "" ? "empty body" : flat.slice(0, 160);
}

/**
 * The first text of a Messages, Responses or Chat Completions reply, shortened.
 * @param {unknown} body
 * @returns {string}
 */
function replyText(body) {
  const b = /** @type {any} */ (body);
  const text = b?.content?.find?.((/** @type {any} */ c) => c?.type === "text")?.text ??
    b?.output?.flatMap?.((/** @type {any} */ o) => o?.content ?? [])
      ?.find?.((/** @type {any} */ c) => c?.type === "output_text")?.text ??
    b?.choices?.[0]?.message?.content;
  if (typeof text !== "string") return "";
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
}

/**
 * @param {unknown} error
 * @returns {string}
 */
function reason(error) {
  const e =
    /** @type {{ name?: string, message?: string, cause?: { code?: string, message?: string } }} */ (
      error
    );
  if (e?.name === "TimeoutError") return "no answer within the time limit";
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
}
