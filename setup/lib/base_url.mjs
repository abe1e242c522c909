// @ts-check
/**
 * Which gateway root the script configures: the served one, `--base-url`, `GATEHOUSE_BASE_URL`
 * or `--alt` (the reserved alternative root), with the refusals that keep clients off `/v1/v1`.
 * @module
 */
import { SetupError } from "./common.mjs";

/** The environment variable that overrides the served root. */
export const BASE_ENV = "GATEHOUSE_BASE_URL";

/**
 * @typedef {object} BaseChoice
 * @property {string} url The root, without a trailing slash.
 * @property {string} source Where it came from.
 */

/**
 * Picks and checks the gateway root. Throws a `SetupError` for a missing, malformed or `/v1`
 * address, and for `--alt` while the alternative root is not active.
 * @param {object} options
 * @param {string | undefined} options.flag `--base-url`.
 * @param {boolean} options.alt `--alt`.
 * @param {Record<string, string | undefined>} options.env
 * @param {import("./served.mjs").Served} options.served
 * @returns {BaseChoice}
 */
export function chooseBaseUrl(options) {
  const { served } = options;
  /** @type {BaseChoice | null} */
  let choice = null;
  if (options.flag !== undefined) choice = { url: options.flag, source: "--base-url" };
  else if (options.alt) {
    if (!served.altBaseUrl) {
      throw new SetupError("--alt: this gateway has no alternative root (ALT_BASE_URL is unset).");
    }
    if (!served.altActive) {
      throw new SetupError(
        `--alt: the alternative root ${served.altBaseUrl} is reserved but not active yet, so it ` +
          `is not written. Use the main root ${served.baseUrl ?? ""}, or pass ` +
          `--base-url ${served.altBaseUrl} if its operator told you it answers.`,
      );
    }
    choice = { url: served.altBaseUrl, source: "--alt" };
  } else if (options.env[BASE_ENV] !== undefined && options.env[BASE_ENV] !== "") {
    choice = { url: options.env[BASE_ENV] ?? "", source: BASE_ENV };
  } else if (served.baseUrl) choice = { url: served.baseUrl, source: "the docs host" };
  if (choice === null) {
    throw new SetupError(
      `no gateway address: pass --base-url ROOT or set ${BASE_ENV} (the gateway root, e.g. ` +
        "https://gatehouse.example.com, without /v1).",
    );
  }
  return { url: checkRoot(choice.url, choice.source), source: choice.source };
}

/**
 * Validates a root address and drops trailing slashes.
 * @param {string} raw
 * @param {string} source
 * @returns {string}
 */
export function checkRoot(raw, source) {
  /** @type {URL} */
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new SetupError(
      `the address from ${source} ("${raw}") is not a URL: give the gateway root, ` +
        "e.g. https://gatehouse.example.com.",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SetupError(`the address from ${source} must start with http:// or https://.`);
  }
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new SetupError(
      `the address from ${source} carries a query, fragment or credentials: give the bare root.`,
    );
  }
  const root = url.href.replace(/\/+$/, "");
  if (/\/v1$/i.test(root)) {
    throw new SetupError(
      `the address from ${source} ends in /v1: give the gateway root (${root.slice(0, -3)}). ` +
        "The clients add /v1/... themselves, so a base ending in /v1 makes them call /v1/v1/..., " +
        "which the gateway answers with 404.",
    );
  }
  return root;
}
