// @ts-check
/**
 * Where the key comes from (`--key`, `GATEHOUSE_API_KEY`, a prompt or standard input) and the
 * refusals: empty, whitespace or a line break inside, an unsubstituted placeholder.
 * @module
 */
import { Buffer } from "node:buffer";
import process from "node:process";
import { SetupError } from "./common.mjs";

/** The environment variable the script reads the key from. */
export const KEY_ENV = "GATEHOUSE_API_KEY";

// The gateway's own placeholder rule (routes/auth.ts), widened to the forms docs and shells leave
// behind: <key>, ${VAR}, $VAR, {{key}}, %VAR%, "your key", sk-xxx, gth_..., xxx.
const PLACEHOLDER =
  /^(<[^>]*>|\[[^\]]*\]|\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\{\{[^}]*\}\}|%[A-Za-z_]+%)$|^(your|my|the)[-_ ]?(gatehouse[-_ ]?)?(api[-_ ]?)?key$|^(sk|gth)[-_](x{3,}|\.{3}|…)|^(x{3,}|\.{3}|…)$/i;

/**
 * Why a key is refused, or null when it is usable.
 * @param {string} key
 * @param {string} source Where it came from, e.g. `--key`.
 * @returns {string | null}
 */
export function keyProblem(key, source) {
  if (key === "") {
    return `the key from ${source} is empty (an unset variable?): pass --key KEY or set ${KEY_ENV}.`;
  }
  if (PLACEHOLDER.test(key)) {
    return `the key from ${source} is an unsubstituted placeholder, not a key: put the key itself ` +
      "(deno task keys create prints one).";
  }
  if (/[\r\n]/.test(key)) {
    return `the key from ${source} holds a line break: copy it again as one line.`;
  }
  if (/\s/.test(key)) {
    return `the key from ${source} holds whitespace: copy it again without spaces.`;
  }
  return null;
}

/**
 * @typedef {object} KeyChoice
 * @property {string} key
 * @property {string} source
 */

/**
 * Takes the key from `--key`, else `GATEHOUSE_API_KEY` (or `extraEnv`), else a hidden prompt on
 * a terminal, else the first line of standard input. Throws a `SetupError` naming the refusal.
 * @param {{ flag: string | undefined, env: Record<string, string | undefined>, extraEnv?: string }} options
 * @returns {Promise<KeyChoice>}
 */
export async function acquireKey(options) {
  /** @type {KeyChoice} */
  let choice;
  if (options.flag !== undefined) {
    choice = { key: options.flag, source: "--key" };
  } else if (options.env[KEY_ENV] !== undefined) {
    choice = { key: options.env[KEY_ENV] ?? "", source: KEY_ENV };
  } else if (options.extraEnv !== undefined && options.env[options.extraEnv] !== undefined) {
    choice = { key: options.env[options.extraEnv] ?? "", source: options.extraEnv };
  } else if (process.stdin.isTTY) {
    choice = {
      key: await promptHidden("gatehouse API key (input hidden): "),
      source: "the prompt",
    };
  } else {
    choice = { key: firstLine(await readAll()), source: "standard input" };
  }
  const problem = keyProblem(choice.key, choice.source);
  if (problem !== null) throw new SetupError(problem);
  return choice;
}

/**
 * The first line of a text without its line ending.
 * @param {string} text
 * @returns {string}
 */
function firstLine(text) {
  const end = text.search(/\r?\n/);
  return end === -1 ? text : text.slice(0, end);
}

/** @returns {Promise<string>} */
async function readAll() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads one line from the terminal without echoing it.
 * @param {string} question
 * @returns {Promise<string>}
 */
function promptHidden(question) {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    // Echo goes off before the question shows, so nothing typed after it is ever echoed.
    stdin.setRawMode(true);
    stdin.resume();
    process.stderr.write(question);
    let typed = "";
    /** @param {Buffer} data */
    const onData = (data) => {
      for (const char of data.toString("utf8")) {
        if (char === "\r" || char === "\n") return finish(() => resolve(typed));
        if (char === "\u0003") return finish(() => reject(new SetupError("cancelled.")));
        if (char === "\u007f" || char === "\b") typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    /** @param {() => void} settle */
    const finish = (settle) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
      settle();
    };
    stdin.on("data", onData);
  });
}
