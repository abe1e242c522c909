/**
 * The suite's log collection: every gateway a test runs — in process (`tests/harness.ts`, which
 * the rigs build on) or as a `main.ts` process (`tests/governance/gateway_process.ts`, which the
 * cluster, drain, crash and cross-process tests use) — hands its log lines here when it ends,
 * with the secrets that run knew (its gatehouse keys, the provider credentials of its
 * environment). With `GATEHOUSE_TEST_LOG_DIR` set (`deno task test` sets it and empties the
 * directory first) each run is one small JSON file there; `tests/after_suite/log_scan_test.ts`
 * then scans them all. Without it nothing is written. One write per gateway run, at its end.
 * @module
 */

/** The variable naming the collection directory. */
export const LOG_DIR_VARIABLE = "GATEHOUSE_TEST_LOG_DIR";

/** One gateway run's log lines and the secrets it knew. */
export interface CollectedRun {
  /** What ran (`harness`, `main.ts`), for the scan's report. */
  source: string;
  lines: string[];
  secrets: string[];
}

/** The collection directory (a relative one is under the repository root), or null when the
 * suite does not collect. */
export function collectionDir(): string | null {
  let dir: string | undefined;
  try {
    dir = Deno.env.get(LOG_DIR_VARIABLE);
  } catch {
    return null;
  }
  if (!dir) return null;
  return dir.startsWith("/") ? dir : new URL(`../../${dir}`, import.meta.url).pathname;
}

let written = 0;

/** Writes `run` to the collection directory (nothing when the suite does not collect). */
export function collectRun(run: CollectedRun): void {
  const dir = collectionDir();
  if (dir === null || run.lines.length === 0) return;
  Deno.mkdirSync(dir, { recursive: true });
  const name = `${Deno.pid}-${Date.now()}-${++written}.json`;
  Deno.writeTextFileSync(`${dir}/${name}`, JSON.stringify(run));
}

const pending = new Set<() => void>();
let atExit = false;

/** `collect` made to run once: when the returned function is called (the run closed) or, for
 * a run never closed, when the test process ends. */
export function collectOnce(collect: () => void): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    pending.delete(run);
    collect();
  };
  if (collectionDir() === null) return run;
  pending.add(run);
  if (!atExit) {
    atExit = true;
    globalThis.addEventListener("unload", () => {
      for (const left of [...pending]) left();
    });
  }
  return run;
}

/** Names of environment variables whose values are credentials. */
const CREDENTIAL_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

/** The credentials among an environment's values (provider keys, passwords). */
export function secretsOfEnv(env: Record<string, string | undefined> | undefined): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(env ?? {})) {
    if (value === undefined || value === "") continue;
    // A short value under a credential's name (`GATEHOUSE_METRICS_KEY_LABELS=1`) is no secret.
    if (/^(sk-|gth_)/.test(value) || (CREDENTIAL_NAME.test(name) && value.length >= 8)) {
      found.push(value);
    }
  }
  return found;
}

/** The first start's one-time notice, which shows the new admin key to the operator on stdout by
 * design (`cluster/prepare_store.ts`): the only place gatehouse prints a secret. */
const FIRST_KEY_NOTICE = /It is shown once; store it now:\s+(gth_\S+)/g;

/** `stdout` without the first-key notice's key, and the keys it showed. */
export function withoutFirstKey(stdout: string): { text: string; keys: string[] } {
  const keys: string[] = [];
  const text = stdout.replace(FIRST_KEY_NOTICE, (_match, key: string) => {
    keys.push(key);
    return "It is shown once; store it now: <first key>";
  });
  return { text, keys };
}

/** A memory logger's line as one scannable string. */
export function memoryLine(
  line: { level: string; message: string; fields?: Record<string, unknown> },
): string {
  try {
    return JSON.stringify(line);
  } catch {
    // A field that does not serialise (a cycle): its text is still scanned.
    return `${line.level} ${line.message} ${String(line.fields)}`;
  }
}
