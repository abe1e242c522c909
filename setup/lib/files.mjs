// @ts-check
/**
 * Safe file changes: every changed file gets a timestamped backup beside it (an empty `-none`
 * marker when it did not exist), writes are atomic (a temporary file renamed over the target),
 * files that hold a key are mode 0600, and `--rollback` restores the latest run's backups.
 * @module
 */
import * as fs from "node:fs/promises";
import * as path from "node:path";
import process from "node:process";

const BACKUP = ".gatehouse-backup-";
const ABSENT = "-none";

/**
 * The text of a file, or null when it does not exist. A symlink is followed.
 * @param {string} file
 * @returns {Promise<string | null>}
 */
export async function readText(file) {
  try {
    return await fs.readFile(file, "utf8");
  } catch (error) {
    if (/** @type {{ code?: string }} */ (error).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * The path writes go to: the target of a symlink (dotfile managers link settings files), else
 * the path itself.
 * @param {string} file
 * @returns {Promise<string>}
 */
export async function realTarget(file) {
  try {
    return await fs.realpath(file);
  } catch {
    return file;
  }
}

/**
 * A backup stamp for this run: UTC time to the millisecond, sortable as text.
 * @param {Date} [now]
 * @returns {string}
 */
export function runStamp(now = new Date()) {
  return now.toISOString().replace(/[-:]/g, "").replace(".", "");
}

/**
 * Copies `file` to `<file>.gatehouse-backup-<stamp>` (mode kept), or writes an empty
 * `...-<stamp>-none` marker when the file does not exist. Returns the backup's path.
 * @param {string} file
 * @param {string} stamp
 * @returns {Promise<string>}
 */
export async function backup(file, stamp) {
  const existing = await readText(file);
  if (existing === null) {
    const marker = `${file}${BACKUP}${stamp}${ABSENT}`;
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await fs.writeFile(marker, "", { mode: 0o600 });
    return marker;
  }
  const copy = `${file}${BACKUP}${stamp}`;
  await fs.copyFile(file, copy);
  const { mode } = await fs.stat(file);
  await fs.chmod(copy, mode & 0o777);
  return copy;
}

/**
 * Writes `data` to `file` atomically: a temporary file in the same folder, flushed, then
 * renamed over the target. `mode` applies to the new file (0600 for files holding a key); when
 * absent an existing file keeps its mode and a new one gets 0644.
 * @param {string} file
 * @param {string | Uint8Array} data
 * @param {number | undefined} mode
 */
export async function writeAtomic(file, data, mode) {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  let finalMode = mode;
  if (finalMode === undefined) {
    try {
      finalMode = (await fs.stat(file)).mode & 0o777;
    } catch {
      finalMode = 0o644;
    }
  }
  const temp = path.join(
    dir,
    `.${path.basename(file)}.gatehouse-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`,
  );
  const handle = await fs.open(temp, "wx", 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.chmod(temp, finalMode);
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/**
 * @typedef {object} Restored
 * @property {string} file
 * @property {"restored" | "removed"} action
 * @property {string} backup
 */

/**
 * Restores the files of the latest run that changed any of `files`: each backup of that run is
 * copied back byte for byte (or the file removed when it did not exist before), then the used
 * backups are deleted so that a second rollback goes one run further back.
 * @param {string[]} files
 * @param {boolean} [dryRun] Only report what would be restored.
 * @returns {Promise<Restored[]>}
 */
export async function rollback(files, dryRun = false) {
  /** @type {{ file: string, backup: string, stamp: string, absent: boolean }[]} */
  const found = [];
  for (const file of files) {
    const dir = path.dirname(file);
    const prefix = `${path.basename(file)}${BACKUP}`;
    let names = [];
    try {
      names = await fs.readdir(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.startsWith(prefix)) continue;
      const rest = name.slice(prefix.length);
      const match = /^(\d{8}T\d{9}Z)(-\d+)?(-none)?$/.exec(rest);
      if (!match) continue;
      found.push({
        file,
        backup: path.join(dir, name),
        stamp: `${match[1]}${match[2] ?? ""}`,
        absent: match[3] !== undefined,
      });
    }
  }
  if (found.length === 0) return [];
  const latest = found.map((f) => f.stamp).sort().at(-1);
  /** @type {Restored[]} */
  const restored = [];
  for (const item of found.filter((f) => f.stamp === latest)) {
    if (dryRun) {
      restored.push({
        file: item.file,
        action: item.absent ? "removed" : "restored",
        backup: item.backup,
      });
    } else if (item.absent) {
      await fs.rm(item.file, { force: true });
      restored.push({ file: item.file, action: "removed", backup: item.backup });
    } else {
      const bytes = await fs.readFile(item.backup);
      const mode = (await fs.stat(item.backup)).mode & 0o777;
      await writeAtomic(item.file, bytes, mode);
      restored.push({ file: item.file, action: "restored", backup: item.backup });
    }
    if (!dryRun) await fs.rm(item.backup, { force: true });
  }
  return restored;
}

/**
 * A stamp not yet used by a backup of any of `files` (a `-N` suffix on a clash).
 * @param {string[]} files
 * @param {string} stamp
 * @returns {Promise<string>}
 */
export async function freeStamp(files, stamp) {
  for (let n = 0;; n++) {
    const candidate = n === 0 ? stamp : `${stamp}-${n}`;
    const taken = await Promise.all(files.flatMap((file) => [
      exists(`${file}${BACKUP}${candidate}`),
      exists(`${file}${BACKUP}${candidate}${ABSENT}`),
    ]));
    if (!taken.includes(true)) return candidate;
  }
}

/**
 * @param {string} file
 * @returns {Promise<boolean>}
 */
async function exists(file) {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}
