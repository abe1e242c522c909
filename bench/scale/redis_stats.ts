/**
 * Redis round trips per request: `INFO commandstats` read before and after a measured run (over
 * a plain RESP connection, so the bench adds no client library's own commands), and a pure
 * parser and difference of the per-command call counts.
 * @module
 */

/** Calls and microseconds spent per command (`evalsha`, `hello`, …), as `INFO commandstats`
 * counts them. */
export type CommandCalls = Map<string, { calls: number; usec: number }>;

/** One command's calls during a run, per request, and the server time they took. */
export interface CommandDelta {
  command: string;
  calls: number;
  perRequest: number;
  /** Microseconds Redis spent in them (an EVALSHA's includes the commands its script ran). */
  usec: number;
}

/** Commands only a client sends (never a script): each call is a request the client made.
 * Redis also counts in `commandstats` every command a Lua script runs (the `ZADD`, `PEXPIRE`, …
 * inside one `EVALSHA`), so those are work done, not round trips. */
export const CLIENT_COMMANDS: ReadonlySet<string> = new Set([
  "evalsha",
  "eval",
  "evalsha_ro",
  "eval_ro",
  "fcall",
  "fcall_ro",
  "publish",
  "subscribe",
  "psubscribe",
  "hello",
  "auth",
  "ping",
  "quit",
  "select",
  "info",
  "multi",
  "exec",
  "script|load",
  "client|setname",
  "client|setinfo",
]);

/** Per request: calls of the commands in {@link CLIENT_COMMANDS} (the round trips, counting a
 * pipelined command as one each), calls of every command (the commands executed), and Redis's
 * microseconds in the client commands (their scripts included). */
export function perRequest(deltas: readonly CommandDelta[], requests: number): {
  roundTrips: number;
  executed: number;
  usec: number;
} {
  const client = deltas.filter((d) => CLIENT_COMMANDS.has(d.command));
  const sum = (list: readonly CommandDelta[], field: "calls" | "usec") =>
    list.reduce((n, d) => n + d[field], 0);
  return {
    roundTrips: sum(client, "calls") / requests,
    executed: sum(deltas, "calls") / requests,
    usec: sum(client, "usec") / requests,
  };
}

/** Reads the `cmdstat_<name>:calls=N,...` lines of `INFO commandstats` (sub-commands such as
 * `client|setname` keep their `|`). */
export function parseCommandStats(info: string): CommandCalls {
  const calls: CommandCalls = new Map();
  for (const match of info.matchAll(/^cmdstat_([^:\s]+):calls=(\d+),usec=(\d+)/gm)) {
    calls.set(match[1]!, { calls: Number(match[2]), usec: Number(match[3]) });
  }
  return calls;
}

/** The calls made between two readings, per command (most first), divided by `requests`; the
 * commands in `exclude` (the bench's own `info`) are left out. */
export function commandDeltas(
  before: CommandCalls,
  after: CommandCalls,
  requests: number,
  exclude: readonly string[] = ["info"],
): CommandDelta[] {
  const deltas: CommandDelta[] = [];
  for (const [command, now] of after) {
    const then = before.get(command) ?? { calls: 0, usec: 0 };
    const calls = now.calls - then.calls;
    if (calls <= 0 || exclude.includes(command)) continue;
    deltas.push({
      command,
      calls,
      perRequest: requests > 0 ? calls / requests : NaN,
      usec: now.usec - then.usec,
    });
  }
  return deltas.sort((a, b) => b.calls - a.calls || a.command.localeCompare(b.command));
}

/** Adds the calls made between `before` and `after` to `total` (summing several measured
 * slices, so what Redis did between them, such as heartbeats while other targets ran, is left
 * out); returns `total`. */
export function addCalls(total: CommandCalls, before: CommandCalls, after: CommandCalls) {
  for (const [command, now] of after) {
    const then = before.get(command) ?? { calls: 0, usec: 0 };
    const sum = total.get(command) ?? { calls: 0, usec: 0 };
    total.set(command, {
      calls: sum.calls + now.calls - then.calls,
      usec: sum.usec + now.usec - then.usec,
    });
  }
  return total;
}

/** A RESP command: an array of bulk strings. */
export function respCommand(args: readonly string[]): Uint8Array {
  const encoder = new TextEncoder();
  const parts = args.map((arg) => `$${encoder.encode(arg).length}\r\n${arg}\r\n`);
  return encoder.encode(`*${args.length}\r\n${parts.join("")}`);
}

/** Reads one reply (simple string, error or bulk string) from `conn`; `buffer` carries bytes
 * read past it. */
async function readReply(conn: Deno.Conn, state: { buffer: Uint8Array }): Promise<string> {
  const chunk = new Uint8Array(64 * 1024);
  const decoder = new TextDecoder();
  for (;;) {
    const text = decoder.decode(state.buffer);
    const header = text.indexOf("\r\n");
    if (header !== -1) {
      const kind = text[0];
      if (kind === "-") throw new Error(`redis: ${text.slice(1, header)}`);
      if (kind === "+") {
        state.buffer = state.buffer.slice(header + 2);
        return text.slice(1, header);
      }
      if (kind !== "$") throw new Error(`redis: unexpected reply ${text.slice(0, header)}`);
      const length = Number(text.slice(1, header));
      const start = new TextEncoder().encode(text.slice(0, header + 2)).length;
      if (state.buffer.length >= start + length + 2) {
        const body = decoder.decode(state.buffer.slice(start, start + length));
        state.buffer = state.buffer.slice(start + length + 2);
        return body;
      }
    }
    const read = await conn.read(chunk);
    if (read === null) throw new Error("redis: the connection closed before the reply");
    const grown = new Uint8Array(state.buffer.length + read);
    grown.set(state.buffer);
    grown.set(chunk.subarray(0, read), state.buffer.length);
    state.buffer = grown;
  }
}

/** `INFO <section>` from the Redis at `url` (`redis://[user:password@]host:port`). */
export async function redisInfo(url: string, section = "commandstats"): Promise<string> {
  const parsed = new URL(url);
  const conn = await Deno.connect({
    hostname: parsed.hostname || "127.0.0.1",
    port: Number(parsed.port || 6379),
  });
  try {
    const state = { buffer: new Uint8Array() };
    if (parsed.password !== "") {
      const user = decodeURIComponent(parsed.username || "default");
      await conn.write(respCommand(["AUTH", user, decodeURIComponent(parsed.password)]));
      await readReply(conn, state);
    }
    await conn.write(respCommand(["INFO", section]));
    return await readReply(conn, state);
  } finally {
    conn.close();
  }
}
