/**
 * Builds what the docs host serves under /setup/: the one-file set-up script (the modules of
 * `gatehouse_setup.mjs` joined in dependency order, the docs host's addresses written into
 * `SERVED`) and the `sh` entry points that download and run it.
 * @module
 */

/** The addresses written into the served scripts. */
export interface ServedAddresses {
  baseUrl: string;
  docsUrl: string;
  altBaseUrl: string | null;
  altActive: boolean;
}

/** The clients with a set-up script, and their titles. */
export const SETUP_CLIENTS = {
  "claude-code": "Claude Code",
  codex: "Codex",
  continue: "Continue",
  zed: "Zed",
} as const;

/** A client with a set-up script. */
export type SetupClient = keyof typeof SETUP_CLIENTS;

const ENTRY = "gatehouse_setup.mjs";
const RELATIVE_IMPORT = /^import .* from "(\.{1,2}\/[^"]+)";$/;
const NODE_IMPORT = /^import .* from "(node:[^"]+)";$/;
const SERVED_LINE = /^export const SERVED = .*;$/;

/** Reads a module's text by its path relative to setup/. */
export type ReadModule = (path: string) => Promise<string>;

/** Reads modules from this folder. */
export const readSetupModule: ReadModule = (path) =>
  Deno.readTextFile(new URL(path, import.meta.url));

/**
 * Joins `gatehouse_setup.mjs` and every module it imports (depth first, dependencies before
 * their importers) into one ES module, with `SERVED` filled in. Throws when a module uses a
 * form the join cannot keep (default or list exports, side-effect imports, conflicting node
 * imports).
 */
export async function bundleSetupScript(
  served: ServedAddresses,
  read: ReadModule = readSetupModule,
): Promise<string> {
  const order: string[] = [];
  const texts = new Map<string, string>();
  const visit = async (path: string, trail: string[]) => {
    if (texts.has(path)) return;
    if (trail.includes(path)) throw new Error(`import cycle: ${[...trail, path].join(" -> ")}`);
    const text = await read(path);
    for (const line of logicalLines(text)) {
      const match = RELATIVE_IMPORT.exec(line);
      if (match) await visit(resolve(path, match[1]!), [...trail, path]);
    }
    texts.set(path, text);
    order.push(path);
  };
  await visit(ENTRY, []);

  const nodeImports = new Map<string, string>();
  const bodies = order.map((path) => {
    const kept: string[] = [];
    for (const line of logicalLines(texts.get(path)!)) {
      if (line.startsWith("#!") || line === "// @ts-check" || RELATIVE_IMPORT.test(line)) continue;
      const node = NODE_IMPORT.exec(line);
      if (node) {
        const previous = nodeImports.get(node[1]!);
        if (previous !== undefined && previous !== line) {
          throw new Error(`${path} imports ${node[1]} as "${line}", elsewhere "${previous}"`);
        }
        nodeImports.set(node[1]!, line);
      } else if (SERVED_LINE.test(line)) kept.push(`const SERVED = ${JSON.stringify(served)};`);
      else if (line.startsWith("import ") || /^export (default|\{)/.test(line)) {
        throw new Error(`${path}: the set-up bundle cannot keep "${line}"`);
      } else kept.push(line.startsWith("export ") ? line.slice("export ".length) : line);
    }
    return `// ---- setup/${path}\n${kept.join("\n").trim()}\n`;
  });
  return [
    "#!/usr/bin/env node",
    "// gatehouse client set-up, served by the gatehouse docs host with its addresses filled in.",
    `// Gateway ${served.baseUrl}; docs ${served.docsUrl}. Run: node gatehouse-setup.mjs --help`,
    "// Generated from setup/*.mjs in the gatehouse repository; edit those, not this file.",
    ...nodeImports.values(),
    "",
    ...bodies,
  ].join("\n");
}

/** The `sh` entry point of one client: finds node or deno and runs the served script. */
export async function renderEntryScript(
  client: SetupClient,
  docsUrl: string,
  read: ReadModule = readSetupModule,
): Promise<string> {
  const template = await read("entry.sh");
  const values: Record<string, string> = {
    "@@TITLE@@": SETUP_CLIENTS[client],
    "@@CLIENT@@": client,
    "@@DOCS_URL@@": docsUrl,
    "@@SCRIPT_URL@@": shellQuote(`${docsUrl}/setup/gatehouse-setup.mjs`),
  };
  return template.replace(/@@[A-Z_]+@@/g, (name) => {
    const value = values[name];
    if (value === undefined) throw new Error(`entry.sh: unknown placeholder ${name}`);
    return value;
  });
}

/** Single-quotes a word for `sh`. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The lines of a module, with each multi-line `import { ... } from "...";` (as `deno fmt`
 * wraps long ones) joined into one. */
function logicalLines(text: string): string[] {
  const out: string[] = [];
  let pending: string[] | null = null;
  for (const line of text.split("\n")) {
    if (pending !== null) {
      pending.push(line.trim());
      if (/ from "[^"]+";$/.test(line)) {
        out.push(pending.join(" ").replace(/\{ /, "{ ").replace(/,? \}/, " }"));
        pending = null;
      }
    } else if (/^import \{$/.test(line)) pending = [line];
    else out.push(line);
  }
  if (pending !== null) throw new Error(`unterminated import: ${pending.join(" ")}`);
  return out;
}

function resolve(from: string, relative: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const part of relative.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}
