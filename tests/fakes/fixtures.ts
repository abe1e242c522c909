/**
 * Typed loaders for the recorded provider transcripts in `/work/shared/fixtures/recorded/`.
 *
 * The files are ground truth and are returned as recorded: chunk lines are raw strings, never
 * re-serialized, because a few recorded lines are not valid JSON (see {@linkcode chunkType}).
 * @module
 */

/** The recorded folders, one per provider wire. */
export type FixtureFolder =
  | "anthropic-messages"
  | "openai-responses"
  | "openai-chat"
  | "openai-images";

/** Every recorded folder, for loops in tests. */
export const FIXTURE_FOLDERS: readonly FixtureFolder[] = [
  "anthropic-messages",
  "openai-responses",
  "openai-chat",
  "openai-images",
];

/** Root of the recorded transcripts. */
export const FIXTURE_ROOT: URL = new URL("../../../shared/fixtures/recorded/", import.meta.url);

const CHUNKS_SUFFIX = ".chunks.txt";
const JSON_SUFFIX = ".json";

/** The two kinds of recorded file a fixture name can have. */
export interface FixtureKinds {
  /** `<name>.chunks.txt` exists: one streamed event's `data:` payload per line. */
  chunks: boolean;
  /** `<name>.json` exists: a non-streamed response body. */
  json: boolean;
}

function fileUrl(folder: FixtureFolder, file: string): URL {
  return new URL(`${folder}/${file}`, FIXTURE_ROOT);
}

/**
 * The `data:` payloads of `<folder>/<name>.chunks.txt`, in recorded order, as raw lines
 * (blank lines and a missing final newline are tolerated; nothing else is touched).
 */
export async function loadChunks(folder: FixtureFolder, name: string): Promise<string[]> {
  const text = await Deno.readTextFile(fileUrl(folder, name + CHUNKS_SUFFIX));
  return text.split("\n").map((line) => line.replace(/\r$/, "")).filter((line) => line !== "");
}

/** The raw text of `<folder>/<name>.json`, byte-for-byte as recorded. */
export function loadJsonText(folder: FixtureFolder, name: string): Promise<string> {
  return Deno.readTextFile(fileUrl(folder, name + JSON_SUFFIX));
}

/** `<folder>/<name>.json`, parsed. */
export async function loadJson(folder: FixtureFolder, name: string): Promise<unknown> {
  const text = await loadJsonText(folder, name);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`recorded fixture ${folder}/${name}.json is not valid JSON: ${error}`);
  }
}

/** Sorted fixture names of a folder (file names without `.chunks.txt` / `.json`). */
export async function listFixtures(folder: FixtureFolder): Promise<string[]> {
  const names = new Set<string>();
  for await (const entry of Deno.readDir(new URL(`${folder}/`, FIXTURE_ROOT))) {
    if (!entry.isFile) continue;
    if (entry.name.endsWith(CHUNKS_SUFFIX)) names.add(entry.name.slice(0, -CHUNKS_SUFFIX.length));
    else if (entry.name.endsWith(JSON_SUFFIX)) names.add(entry.name.slice(0, -JSON_SUFFIX.length));
  }
  return [...names].sort();
}

/** Which recorded files exist for a fixture name. */
export async function fixtureKinds(folder: FixtureFolder, name: string): Promise<FixtureKinds> {
  const exists = async (file: string): Promise<boolean> => {
    try {
      return (await Deno.stat(fileUrl(folder, file))).isFile;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  };
  const [chunks, json] = await Promise.all([
    exists(name + CHUNKS_SUFFIX),
    exists(name + JSON_SUFFIX),
  ]);
  return { chunks, json };
}

/**
 * The `type` of a recorded chunk line, or `undefined` for chat chunks (which have none).
 *
 * Recording quirk: `openai-responses/parallel-tool-call-wrapper.1.chunks.txt` has two lines that
 * lack their final `}` (not valid JSON, upstream's file is like that). Their `type` is still the
 * first key, so it is read with a pattern when parsing fails.
 */
export function chunkType(line: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed === "object" && parsed !== null && "type" in parsed) {
      return typeof parsed.type === "string" ? parsed.type : undefined;
    }
    return undefined;
  } catch {
    return /^\{\s*"type"\s*:\s*"([^"]+)"/.exec(line)?.[1];
  }
}

/** True when the line parses as JSON. */
export function isJsonLine(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

const STREAM_STARTS: ReadonlySet<string> = new Set(["message_start", "response.created"]);

/**
 * Splits a chunks file into the HTTP responses it records. Most files hold one stream;
 * `openai-responses/openai-reasoning-encrypted-content.1.chunks.txt` records a four-step tool
 * run (four `response.created` … `response.completed` streams back to back). A new stream starts
 * at each `message_start` / `response.created`; chat files are always one stream.
 */
export function splitStreams(lines: readonly string[]): string[][] {
  const streams: string[][] = [];
  for (const line of lines) {
    const type = chunkType(line);
    const current = streams.at(-1);
    if (current === undefined || (type !== undefined && STREAM_STARTS.has(type))) {
      streams.push([line]);
    } else {
      current.push(line);
    }
  }
  return streams;
}
