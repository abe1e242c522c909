/**
 * Running a command the bench needs (node, npm, git, deno install).
 * @module
 */

/** Runs `command` (in `cwd`, default the current directory): its stdout, or why it failed (the
 * last lines of its stderr, or that it is not installed). */
export async function runCommand(
  command: string,
  args: string[],
  cwd?: string,
): Promise<{ stdout: string } | { failed: string }> {
  try {
    const output = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" })
      .output();
    if (output.success) return { stdout: new TextDecoder().decode(output.stdout).trim() };
    const stderr = new TextDecoder().decode(output.stderr).trim();
    return { failed: stderr.split("\n").slice(-3).join(" ") };
  } catch (error) {
    const missing = error instanceof Deno.errors.NotFound;
    return { failed: missing ? `${command} is not installed` : String(error) };
  }
}
