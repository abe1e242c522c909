/**
 * Installing the pinned real clients (Claude Code, Codex; tests/clients/package.json and
 * package-lock.json) into tests/clients/node_modules: `npm ci` once per clone, a lock directory
 * keeping concurrent test files and runs to one install at a time, each binary checked to report
 * its pinned version. `real_clients.ts` decides what the tests do when this fails.
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

/** The clients, or why they are unavailable and the one command that would install them. */
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

const log = (line: string) => console.error(`tests/clients: ${line}`);

/** Installs the pinned clients if this clone lacks them (once per clone, whichever process gets
 * the lock), and returns them or why they are unavailable. A failed install is remembered
 * (`.install.failed`): neither this process nor one that waited for it tries it again. */
export async function installClients(): Promise<RealClients> {
  const lockfile = await Deno.readTextFile(LOCKFILE);
  const hash = await sha256(lockfile);
  if (await stamped(hash)) return { ready: true, binaries: binaries() };
  const earlier = await readFailure();
  if (earlier && earlier.pid === Deno.pid && earlier.hash === hash) {
    return unavailable(earlier);
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
      return unavailable(failure); // the install just waited for failed: not a second one in a row
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
      return unavailable(failed);
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
      out = await versionOf(path);
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

/** What `binary --version` prints (stdout and stderr), run with only PATH in its environment. */
async function versionOf(binary: string): Promise<string> {
  const output = await new Deno.Command(binary, {
    args: ["--version"],
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(30_000),
  }).output();
  const decoder = new TextDecoder();
  return `${decoder.decode(output.stdout)}${decoder.decode(output.stderr)}`
    .trim();
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

function unavailable(failure: Failure): RealClients {
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
