// @ts-check
/**
 * The line diff `--dry-run` prints: hunks of removed (`-`) and added (`+`) lines, each headed by
 * the line number it starts at in the old file.
 * @module
 */

/**
 * @param {string} before
 * @param {string} after
 * @returns {string[]} The diff's lines (empty when the texts are equal).
 */
export function lineDiff(before, after) {
  if (before === after) return [];
  const a = before === "" ? [] : before.replace(/\r?\n$/, "").split(/\r?\n/);
  const b = after === "" ? [] : after.replace(/\r?\n$/, "").split(/\r?\n/);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  if (x.length * y.length > 4_000_000) {
    return [`@@ line ${head + 1}`, ...x.map((l) => `- ${l}`), ...y.map((l) => `+ ${l}`)];
  }
  // Longest common subsequence of the differing middle, then walk it into hunks.
  const width = y.length + 1;
  const table = new Int32Array((x.length + 1) * width);
  const lcs = (/** @type {number} */ i, /** @type {number} */ j) => table[i * width + j] ?? 0;
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      table[i * width + j] = x[i] === y[j]
        ? lcs(i + 1, j + 1) + 1
        : Math.max(lcs(i + 1, j), lcs(i, j + 1));
    }
  }
  /** @type {string[]} */
  const out = [];
  let i = 0;
  let j = 0;
  let open = false;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      i++;
      j++;
      open = false;
      continue;
    }
    if (!open) out.push(`@@ line ${head + i + 1}`);
    open = true;
    if (j < y.length && (i === x.length || lcs(i, j + 1) >= lcs(i + 1, j))) out.push(`+ ${y[j++]}`);
    else out.push(`- ${x[i++]}`);
  }
  return out;
}
