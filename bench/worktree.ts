/**
 * Another commit of this repository beside the checkout, for the runs that measure two builds
 * (`compare.ts`, `instructions.ts`): a temporary git worktree, its packages installed from the
 * cache, removed at the end.
 * @module
 */
import { runCommand } from "./command.ts";

/** Runs `command`: its stdout; throws with why it failed. */
async function run(command: string, args: string[], cwd?: string): Promise<string> {
  const result = await runCommand(command, args, cwd);
  if ("failed" in result) throw new Error(`${command} ${args.join(" ")}: ${result.failed}`);
  return result.stdout;
}

/** Calls `use` with a worktree of `rev` (its directory and short commit) and removes it after. */
export async function withWorktree<T>(
  rev: string,
  use: (tree: string, commit: string) => Promise<T>,
): Promise<T> {
  const commit = await run("git", ["rev-parse", "--verify", "--short", `${rev}^{commit}`]);
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_compare_" });
  const tree = `${dir}/tree`;
  await run("git", ["worktree", "add", "--detach", tree, commit]);
  try {
    await run(Deno.execPath(), ["install"], tree);
    return await use(tree, commit);
  } finally {
    await run("git", ["worktree", "remove", "--force", tree]).catch((error) =>
      console.log(`could not remove the worktree ${tree}: ${error}`)
    );
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
