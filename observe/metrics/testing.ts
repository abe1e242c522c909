/**
 * For tests: a strict reader of the Prometheus text exposition format (0.0.4), so tests check
 * series by name and labels rather than matching fragments of the text. Throws on a line it
 * cannot read.
 * @module
 */

/** One sample line. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A parsed exposition. */
export interface Exposition {
  /** `# TYPE` per metric family. */
  types: Map<string, string>;
  /** `# HELP` per metric family. */
  help: Map<string, string>;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;

function parseLabels(text: string, line: string): { labels: Record<string, string>; rest: string } {
  const labels: Record<string, string> = {};
  let i = 1;
  while (text[i] !== "}") {
    const name = NAME.exec(text.slice(i))?.[0];
    if (name === undefined || text[i + name.length] !== "=" || text[i + name.length + 1] !== '"') {
      throw new Error(`bad label in: ${line}`);
    }
    i += name.length + 2;
    let value = "";
    while (text[i] !== '"') {
      if (i >= text.length) throw new Error(`unterminated label value in: ${line}`);
      if (text[i] === "\\") {
        const next = text[i + 1];
        value += next === "n" ? "\n" : next;
        i += 2;
      } else value += text[i++];
    }
    labels[name] = value;
    i++;
    if (text[i] === ",") i++;
  }
  return { labels, rest: text.slice(i + 1) };
}

function parseValue(text: string, line: string): number {
  const raw = text.trim().split(/\s+/)[0] ?? "";
  if (raw === "+Inf") return Infinity;
  if (raw === "-Inf") return -Infinity;
  if (raw === "NaN") return NaN;
  const value = Number(raw);
  if (raw === "" || Number.isNaN(value)) throw new Error(`bad value in: ${line}`);
  return value;
}

/** Parses an exposition text. */
export function parseExposition(text: string): Exposition {
  const out: Exposition = { types: new Map(), help: new Map(), samples: [] };
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    if (line.startsWith("#")) {
      const match = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
      if (match === null) continue;
      (match[1] === "HELP" ? out.help : out.types).set(match[2]!, match[3]!);
      continue;
    }
    const name = NAME.exec(line)?.[0];
    if (name === undefined) throw new Error(`bad sample: ${line}`);
    let rest = line.slice(name.length);
    let labels: Record<string, string> = {};
    if (rest.startsWith("{")) ({ labels, rest } = parseLabels(rest, line));
    out.samples.push({ name, labels, value: parseValue(rest, line) });
  }
  return out;
}

/** The samples named `name` whose labels include every one of `match`. */
export function samplesOf(
  exposition: Exposition,
  name: string,
  match: Record<string, string> = {},
): Sample[] {
  return exposition.samples.filter((s) =>
    s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)
  );
}

/** The sum of the samples named `name` whose labels include `match` (0 when none). */
export function total(
  exposition: Exposition,
  name: string,
  match: Record<string, string> = {},
): number {
  return samplesOf(exposition, name, match).reduce((sum, s) => sum + s.value, 0);
}
