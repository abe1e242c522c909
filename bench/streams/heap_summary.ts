/**
 * Sums up a V8 heap snapshot (the streams bench's `--snapshot=PATH`): the objects' own sizes by
 * kind and constructor, largest first, with counts; with `--base=FILE` less those of another
 * snapshot (the idle one), and with `--per=N` per N (the streams open when it was taken), so
 * what each open stream holds stands out.
 *
 *   deno run --allow-read bench/streams/heap_summary.ts /tmp/s-open.heapsnapshot \
 *     --base=/tmp/s-idle.heapsnapshot --per=2000 --top=40
 * @module
 */

/** One row of the summary. */
export interface HeapRow {
  /** `object Foo`, `closure bar`, `string`, … */
  kind: string;
  count: number;
  bytes: number;
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** The rows of `snapshot`, largest first. Strings, numbers and code are grouped by kind only;
 * objects and closures by their constructor or function name too. */
export function summarizeHeap(snapshot: Snapshot): HeapRow[] {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const rows = new Map<string, HeapRow>();
  const named = new Set(["object", "closure", "native", "hidden", "array", "object shape"]);
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]!] ?? "?";
    const name = named.has(type) ? snapshot.strings[snapshot.nodes[i + nameAt]!] ?? "" : "";
    const kind = name === "" ? type : `${type} ${name.slice(0, 60)}`;
    const row = rows.get(kind) ?? { kind, count: 0, bytes: 0 };
    row.count++;
    row.bytes += snapshot.nodes[i + sizeAt]!;
    rows.set(kind, row);
  }
  return [...rows.values()].sort((a, b) => b.bytes - a.bytes);
}

if (import.meta.main) {
  const file = Deno.args.find((a) => !a.startsWith("--"));
  if (file === undefined) {
    console.error("usage: heap_summary.ts FILE [--base=FILE] [--per=N] [--top=N]");
    Deno.exit(2);
  }
  const option = (name: string, fallback: number) =>
    Number(Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
  const per = option("per", 1);
  const top = option("top", 40);
  const read = async (path: string) => summarizeHeap(JSON.parse(await Deno.readTextFile(path)));
  const rows = await read(file);
  const basePath = Deno.args.find((a) => a.startsWith("--base="))?.slice("--base=".length);
  if (basePath !== undefined) {
    const base = new Map((await read(basePath)).map((row) => [row.kind, row]));
    for (const row of rows) {
      row.count -= base.get(row.kind)?.count ?? 0;
      row.bytes -= base.get(row.kind)?.bytes ?? 0;
    }
    rows.sort((a, b) => b.bytes - a.bytes);
  }
  const total = rows.reduce((sum, r) => sum + r.bytes, 0);
  console.log(
    `total ${(total / 2 ** 20).toFixed(1)} MB; per ${per}: ${(total / per).toFixed(0)} B`,
  );
  console.log("bytes/per  count/per  kind");
  for (const row of rows.slice(0, top)) {
    console.log(
      `${(row.bytes / per).toFixed(0).padStart(9)}  ${(row.count / per).toFixed(2).padStart(9)}  ` +
        row.kind,
    );
  }
}
