/**
 * The real clients (Claude Code, Codex) the end-to-end tests drive, pinned in tests/clients
 * (package.json + package-lock.json), and running them offline against a local gateway, each in a
 * temporary HOME.
 *
 * The clients install themselves on first use: `realClients()` runs `npm ci` in tests/clients
 * once per clone (a lock directory keeps concurrent test files and runs to one install at a
 * time), then checks that each binary reports its pinned version. When npm is missing or the
 * install fails, the tests that need the clients are registered as ignored, their names giving
 * the reason and the one command that enables them (`clientTest`).
 * @module
 */

const DIR = new URL("./", import.meta.url).pathname;
const LOCKFILE = `${DIR}package-lock.json`;
const BIN = `${DIR}node_modules/.bin/`;
/** Written after an install whose binaries answered with their pinned versions. */
const STAMP = `${DIR}node_modules/.gatehouse-installed`;
/** Held (created exclusively) by whoever installs. */
const LOCK = `${DIR}.install.lock`;
/** The last failed install, so the other test files of the same run do not try again. */
const FAILED = `${DIR}.install.failed`;

const INSTALL = ["ci", "--no-audit", "--no-fund"];
const INSTALL_TIMEOUT_MS = 10 * 60_000;
/** How long to wait for another process's install before giving up (and when a lock is stale). */
const LOCK_WAIT_MS = INSTALL_TIMEOUT_MS + 2 * 60_000;
const MANUAL_INSTALL = `cd tests/clients && npm ${INSTALL.join(" ")}`;

const PACKAGES = {
  claude: "@anthropic-ai/claude-code",
  codex: "@openai/codex",
} as const;
type ClientName = keyof typeof PACKAGES;

/** The installed client binaries. */
export type ClientBinaries = Record<ClientName, string>;

/** The clients, or why the tests that need them are skipped and what enables them. */
export type RealClients =
  | { ready: true; binaries: ClientBinaries }
  | { ready: false; reason: string; enable: string };

interface Failure {
  pid: number;
  hash: string;
  at: number;
  reason: string;
  enable: string;
}

let prepared: Promise<RealClients> | undefined;

/** Installs the pinned clients if this clone lacks them (once per clone), and returns them. */
export function realClients(): Promise<RealClients> {
  prepared ??= prepare();
  return prepared;
}

/**
 * Registers a test that runs the real clients: ignored when they are unavailable, with the
 * reason and the command that enables it in its name.
 */
export function clientTest(
  clients: RealClients,
  name: string,
  fn: (binaries: ClientBinaries) => Promise<void>,
): void {
  if (clients.ready) {
    Deno.test(name, () => fn(clients.binaries));
  } else {
    Deno.test({
      name: `${name} (skipped: ${clients.reason}; enable with: ${clients.enable})`,
      ignore: true,
      fn: () => {},
    });
  }
}

/** What a client run printed. */
export interface ClientRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a client with exactly `env` (plus PATH), bounded in time. */
export async function runClient(
  binary: string,
  args: string[],
  env: Record<string, string>,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<ClientRun> {
  const command = new Deno.Command(binary, {
    args,
    cwd: options.cwd,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(options.timeoutMs ?? 120_000),
  });
  const output = await command.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

const log = (line: string) => console.error(`tests/clients: ${line}`);

async function prepare(): Promise<RealClients> {
  const lockfile = await Deno.readTextFile(LOCKFILE);
  const hash = await sha256(lockfile);
  if (await stamped(hash)) return { ready: true, binaries: binaries() };
  const earlier = await readFailure();
  if (earlier && earlier.pid === Deno.pid && earlier.hash === hash) {
    return skip(earlier);
  }

  const waitStart = Date.now();
  const waited = await acquireLock(waitStart);
  if (waited === "timeout") {
    return {
      ready: false,
      reason: `another install held ${LOCK} for over ${LOCK_WAIT_MS / 60_000} minutes`,
      enable: `rm -r tests/clients/.install.lock`,
    };
  }
  try {
    if (await stamped(hash)) return { ready: true, binaries: binaries() };
    const failure = await readFailure();
    if (waited && failure && failure.hash === hash && failure.at >= waitStart) {
      return skip(failure); // the install just waited for failed: not a second one in a row
    }
    const versions = pinnedVersions(lockfile);
    if (await verify(versions) === null) {
      await Deno.writeTextFile(STAMP, hash); // installed by hand with npm ci
      return { ready: true, binaries: binaries() };
    }
    const problem = await install(versions);
    if (problem) {
      const failed: Failure = {
        pid: Deno.pid,
        hash,
        at: Date.now(),
        ...problem,
      };
      await Deno.writeTextFile(FAILED, JSON.stringify(failed));
      log(
        `the real-client tests are skipped: ${problem.reason}; enable with: ${problem.enable}`,
      );
      return skip(failed);
    }
    await Deno.writeTextFile(STAMP, hash);
    await Deno.remove(FAILED).catch(() => {});
    return { ready: true, binaries: binaries() };
  } finally {
    await Deno.remove(LOCK, { recursive: true }).catch(() => {});
  }
}

/** Runs `npm ci`; returns what went wrong, or null. */
async function install(
  versions: Record<ClientName, string>,
): Promise<{ reason: string; enable: string } | null> {
  log("installing the pinned real clients (npm ci), once per clone…");
  const start = Date.now();
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command("npm", {
      args: INSTALL,
      cwd: DIR,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(INSTALL_TIMEOUT_MS),
    }).output();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return {
        reason: "npm is not installed",
        enable: "apt-get install -y npm",
      };
    }
    return { reason: `npm ci could not run: ${error}`, enable: MANUAL_INSTALL };
  }
  if (!output.success) {
    const stderr = new TextDecoder().decode(output.stderr);
    const lines = stderr.split("\n").map((l) => l.trim()).filter((l) => l !== "");
    const detail = lines.find((l) => /^npm (error|ERR!) (?!(code|syscall|errno) )/.test(l)) ??
      lines.at(-1) ?? "";
    const how = output.signal ? `was stopped (${output.signal})` : `exited ${output.code}`;
    const message = detail.replace(/^npm (error|ERR!) /, "").slice(0, 300);
    return { reason: `npm ci ${how}: ${message}`, enable: MANUAL_INSTALL };
  }
  const wrong = await verify(versions);
  if (wrong) {
    return { reason: `after npm ci, ${wrong}`, enable: MANUAL_INSTALL };
  }
  log(
    `installed claude ${versions.claude} and codex ${versions.codex} in ${
      Math.round((Date.now() - start) / 1000)
    } s`,
  );
  return null;
}

/** Null when every binary is there and reports its pinned version, else what is wrong. */
async function verify(
  versions: Record<ClientName, string>,
): Promise<string | null> {
  for (
    const [name, path] of Object.entries(binaries()) as [ClientName, string][]
  ) {
    if (!await exists(path)) return `${path} is missing`;
    let out: string;
    try {
      const run = await runClient(path, ["--version"], {}, {
        timeoutMs: 30_000,
      });
      out = `${run.stdout}${run.stderr}`.trim();
    } catch (error) {
      return `${name} --version failed: ${error}`;
    }
    if (!out.includes(versions[name])) {
      return `${name} --version printed "${out.slice(0, 200)}", not ${versions[name]}`;
    }
  }
  return null;
}

/** Takes the lock, waiting for another holder; true if it had to wait. */
async function acquireLock(start: number): Promise<boolean | "timeout"> {
  let waited = false;
  while (true) {
    try {
      await Deno.mkdir(LOCK);
      await Deno.writeTextFile(
        `${LOCK}/owner.json`,
        JSON.stringify({ pid: Deno.pid, host: hostname(), at: Date.now() }),
      );
      return waited;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    if (await staleLock()) {
      log(`removing the stale install lock ${LOCK}`);
      await Deno.remove(LOCK, { recursive: true }).catch(() => {});
      continue;
    }
    if (Date.now() - start > LOCK_WAIT_MS) return "timeout";
    if (!waited) {
      log(`waiting for the install another test process is running (${LOCK})…`);
    }
    waited = true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** A lock whose owner process is gone (same host), or older than any install may take. */
async function staleLock(): Promise<boolean> {
  try {
    const info = await Deno.stat(LOCK);
    if (Date.now() - (info.mtime?.getTime() ?? Date.now()) > LOCK_WAIT_MS) {
      return true;
    }
    const owner = JSON.parse(await Deno.readTextFile(`${LOCK}/owner.json`)) as {
      pid: number;
      host: string;
    };
    return owner.host === hostname() && await exists("/proc/self") &&
      !await exists(`/proc/${owner.pid}`);
  } catch {
    return false; // just released, or its owner has not written owner.json yet
  }
}

function binaries(): ClientBinaries {
  return { claude: `${BIN}claude`, codex: `${BIN}codex` };
}

async function stamped(hash: string): Promise<boolean> {
  try {
    if (await Deno.readTextFile(STAMP) !== hash) return false;
  } catch {
    return false;
  }
  for (const path of Object.values(binaries())) {
    if (!await exists(path)) return false;
  }
  return true;
}

function pinnedVersions(lockfile: string): Record<ClientName, string> {
  const packages = (JSON.parse(lockfile) as { packages: Record<string, { version: string }> })
    .packages;
  const version = (name: string) => {
    const entry = packages[`node_modules/${name}`];
    if (!entry) throw new Error(`${LOCKFILE} does not pin ${name}`);
    return entry.version;
  };
  return { claude: version(PACKAGES.claude), codex: version(PACKAGES.codex) };
}

async function readFailure(): Promise<Failure | null> {
  try {
    return JSON.parse(await Deno.readTextFile(FAILED)) as Failure;
  } catch {
    return null;
  }
}

function skip(failure: Failure): RealClients {
  return { ready: false, reason: failure.reason, enable: failure.enable };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

function hostname(): string {
  try {
    return Deno.hostname();
  } catch {
    return "";
  }
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(text),
  );
  return Array.from(
    new Uint8Array(digest),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}
