// @ts-check
/**
 * The addresses the docs host writes into this script when it serves it. Run from a checkout
 * they are empty, and `--base-url` or `GATEHOUSE_BASE_URL` must name the gateway.
 * @module
 */

/**
 * @typedef {object} Served
 * @property {string | null} baseUrl The gateway root clients use (PUBLIC_BASE_URL).
 * @property {string | null} docsUrl The docs host (DOCS_URL).
 * @property {string | null} altBaseUrl The reserved alternative root (ALT_BASE_URL).
 * @property {boolean} altActive Whether the alternative root answers yet (ALT_BASE_URL_ACTIVE).
 */

/** @type {Served} */
export const SERVED = { baseUrl: null, docsUrl: null, altBaseUrl: null, altActive: false };
