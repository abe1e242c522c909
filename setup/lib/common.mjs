// @ts-check
/**
 * What every part of the set-up script shares: the refusal error and key masking.
 * @module
 */

/** A refusal or failure the script reports as one line and exits 1 on. */
export class SetupError extends Error {
  /** @param {string} message What failed and what to do. */
  constructor(message) {
    super(message);
    this.name = "SetupError";
  }
}

/**
 * How a key is shown: its public `gth_<id>_` prefix only, never the secret.
 * @param {string} key
 * @returns {string}
 */
export function maskKey(key) {
  const match = /^gth_[A-Za-z0-9]+_/.exec(key);
  return match ? `${match[0]}…` : "(hidden)";
}

/**
 * Replaces every occurrence of `secret` in `text` with its masked form.
 * @param {string} text
 * @param {string} secret
 * @returns {string}
 */
export function hideSecret(text, secret) {
  return secret === "" ? text : text.split(secret).join(maskKey(secret));
}

/**
 * The line ending a text already uses (CRLF when its first line break is CRLF).
 * @param {string} text
 * @returns {string}
 */
export function lineEnding(text) {
  const index = text.indexOf("\n");
  return index > 0 && text[index - 1] === "\r" ? "\r\n" : "\n";
}
