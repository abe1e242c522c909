// @ts-check
/**
 * The set-up run: options → (rollback) → address → key → live catalog check → plan → dry run or
 * backed-up atomic writes → live request through the client's own route.
 * @module
 */
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { chooseBaseUrl } from "./base_url.mjs";
import { claudeCode } from "./clients/claude_code.mjs";
import { codex } from "./clients/codex.mjs";
import { continueDev } from "./clients/continue.mjs";
import { zed } from "./clients/zed.mjs";
import { parseArgs, usage } from "./cli.mjs";
import { hideSecret, maskKey, SetupError } from "./common.mjs";
import { lineDiff } from "./diff.mjs";
import {
  backup,
  freeStamp,
  readText,
  realTarget,
  rollback,
  runStamp,
  writeAtomic,
} from "./files.mjs";
import { fetchCatalog, requireIds, sendLiveRequest } from "./gateway.mjs";
import { acquireKey } from "./key.mjs";
import { SERVED } from "./served.mjs";

/** @type {Record<string, import("./plan.mjs").Client>} */
const CLIENTS = { "claude-code": claudeCode, codex, continue: continueDev, zed };

/**
 * Runs the set-up and returns the exit code: 0 done, 1 refused or failed (the message says why).
 * @param {string[]} argv
 * @returns {Promise<number>}
 */
export async function main(argv) {
  const env = process.env;
  const out = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
  try {
    const options = parseArgs(argv);
    if (options.help) {
      out(usage(SERVED));
      return 0;
    }
    const client = /** @type {import("./plan.mjs").Client} */ (CLIENTS[options.client]);
    const files = await Promise.all(
      client.files(env, os.homedir(), process.platform).map(realTarget),
    );
    if (options.rollback) return await undo(files, options.dryRun, out);

    const base = chooseBaseUrl({ flag: options.baseUrl, alt: options.alt, env, served: SERVED });
    const { key, source } = await acquireKey({
      flag: options.key,
      env,
      extraEnv: options.keyFromEnv ? "ANTHROPIC_AUTH_TOKEN" : undefined,
    });
    out(`gatehouse set-up for ${client.title}`);
    out(`  address  ${base.url} (from ${base.source})`);
    out(`  key      ${maskKey(key)} (from ${source})`);
    if (SERVED.altBaseUrl && !SERVED.altActive && base.url !== SERVED.altBaseUrl) {
      out(`  note     ${SERVED.altBaseUrl} is reserved as an alternative root; not active yet.`);
    }
    const catalog = await fetchCatalog(base.url, key);
    out(`✓ GET ${base.url}/v1/models: key accepted, ${catalog.models.length} models listed`);
    const plan = await client.plan({ root: base.url, key, catalog, options, env, files });
    requireIds(catalog, plan.ids, plan.endpoint, base.url);
    if (plan.ids.length > 0) out(`✓ every id to write is in the catalog: ${plan.ids.join(", ")}`);

    /** @type {string[]} */
    const warnings = [...plan.warnings];
    const say = (/** @type {string} */ warning) => warnings.push(warning);
    const changes = [];
    for (const change of plan.changes) {
      const before = await readText(change.file);
      changes.push({ ...change, before, after: change.apply(before, say) });
    }
    const changed = changes.filter((c) => c.after !== c.before);
    if (options.dryRun) {
      for (const c of changes) {
        if (c.after === c.before) {
          out(`= ${c.file}: unchanged`);
          continue;
        }
        out(
          `~ ${c.file}: would ${c.before === null ? "create" : "change"}${
            c.secret ? " (mode 0600)" : ""
          }`,
        );
        for (const line of lineDiff(c.before ?? "", c.after)) out(`    ${hideSecret(line, key)}`);
      }
      for (const warning of warnings) out(`! ${warning}`);
      out("dry run: nothing was written.");
      return 0;
    }
    const stamp = changed.length > 0 ? await freeStamp(changed.map((c) => c.file), runStamp()) : "";
    for (const c of changes) {
      if (c.after === c.before) {
        out(`= ${c.file}: already up to date`);
        continue;
      }
      const saved = await backup(c.file, stamp);
      await writeAtomic(c.file, c.after, c.secret ? 0o600 : undefined);
      out(
        `✓ ${c.before === null ? "created" : "updated"} ${c.file}${
          c.secret ? " (mode 0600)" : ""
        }` +
          `; backup ${path.basename(saved)}`,
      );
    }
    for (const warning of warnings) out(`! ${warning}`);
    const result = await sendLiveRequest(base.url, key, plan.check);
    if (!result.ok) {
      process.stderr.write(
        `✗ live check: ${hideSecret(result.summary, key)}\n` +
          "  The files are written; run again with --rollback to restore the previous ones.\n",
      );
      return 1;
    }
    out(`✓ live check: ${hideSecret(result.summary, key)}`);
    for (const line of plan.next) out(line);
    return 0;
  } catch (error) {
    if (error instanceof SetupError) {
      process.stderr.write(`gatehouse-setup: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/**
 * @param {string[]} files
 * @param {boolean} dryRun
 * @param {(line: string) => void} out
 * @returns {Promise<number>}
 */
async function undo(files, dryRun, out) {
  const restored = await rollback(files, dryRun);
  if (restored.length === 0) {
    throw new SetupError(
      `no gatehouse backup found beside ${files.join(" or ")}: nothing to roll back.`,
    );
  }
  for (const r of restored) {
    const verb = r.action === "removed" ? "removed (it did not exist before)" : "restored";
    out(`${dryRun ? "would be " : "✓ "}${verb}: ${r.file} (from ${path.basename(r.backup)})`);
  }
  return 0;
}
