/**
 * The real clients (Claude Code, Codex) the end-to-end tests drive, pinned in tests/clients, and
 * running them offline against a local gateway, each in a temporary HOME.
 *
 * `realClients()` installs them on first use (`install_clients.ts`). When that is impossible (no
 * npm, a failed `npm ci`), what the tests that need them do depends on where they run: on a
 * developer's machine they are registered as ignored, their names giving the reason and the one
 * command that enables them; under CI (the `CI` variable set, as CI services and `.ci/run` do)
 * they fail with the reason, so a green run always means the real clients ran.
 * @module
 */
import { type ClientBinaries, installClients, type RealClients } from "./install_clients.ts";

export type { ClientBinaries, RealClients } from "./install_clients.ts";

let prepared: Promise<RealClients> | undefined;

/** Installs the pinned clients if this clone lacks them (once per clone), and returns them. */
export function realClients(): Promise<RealClients> {
  prepared ??= installClients().then((clients) => {
    if (!clients.ready) {
      const then = installRequired(Deno.env.get("CI")) ? "fail (CI is set)" : "are skipped";
      console.error(
        `tests/clients: the real-client tests ${then}: ${clients.reason}; ` +
          `enable with: ${clients.enable}`,
      );
    }
    return clients;
  });
  return prepared;
}

/** Whether unavailable clients fail the tests instead of skipping them: when `ci` (the `CI`
 * variable) is set to anything but "", "0" or "false". */
export function installRequired(ci: string | undefined): boolean {
  return ci !== undefined &&
    !["", "0", "false"].includes(ci.trim().toLowerCase());
}

/** The test {@link clientTest} registers: `fn` with the binaries when the clients are ready;
 * else a test that fails with the reason when `required` (CI), or one ignored with the reason
 * and the command that enables it in its name. */
export function clientTestDefinition(
  clients: RealClients,
  name: string,
  fn: (binaries: ClientBinaries) => Promise<void>,
  required: boolean,
): Deno.TestDefinition {
  if (clients.ready) return { name, fn: () => fn(clients.binaries) };
  if (required) {
    return {
      name,
      fn: () => {
        throw new Error(
          `The real clients could not be installed: ${clients.reason}. CI is set, so this test ` +
            `fails instead of being skipped; make the install work (${clients.enable}).`,
        );
      },
    };
  }
  return {
    name: `${name} (skipped: ${clients.reason}; enable with: ${clients.enable})`,
    ignore: true,
    fn: () => {},
  };
}

/** Registers a test that runs the real clients (see {@link clientTestDefinition}). */
export function clientTest(
  clients: RealClients,
  name: string,
  fn: (binaries: ClientBinaries) => Promise<void>,
): void {
  Deno.test(
    clientTestDefinition(
      clients,
      name,
      fn,
      installRequired(Deno.env.get("CI")),
    ),
  );
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
