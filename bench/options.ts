/**
 * The bench's option names, checked before anything starts: a mistyped option would otherwise
 * be ignored and the run would go on, minutes long, with the defaults.
 * @module
 */

/** Throws for an argument that is not `--name` or `--name=value` with a name in `known`,
 * naming the run (`deno task bench --only=scale`, ...) and where the options are listed. */
export function checkOptions(args: readonly string[], known: readonly string[], run: string) {
  for (const arg of args) {
    const name = /^--([a-z0-9-]+)(?:=|$)/.exec(arg)?.[1];
    if (name === undefined || !known.includes(name)) {
      throw new Error(
        `${run} takes no argument ${JSON.stringify(arg.split("=")[0])}; its options: ` +
          `${known.map((n) => `--${n}`).join(", ")} (deno task bench --help says what each does)`,
      );
    }
  }
}
