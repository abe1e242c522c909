import { PGlite } from "@electric-sql/pglite";
let t = performance.now();
const a = new PGlite();
await a.query("select 1");
console.log("new", performance.now() - t);
t = performance.now();
const b = new PGlite();
await b.query("select 1");
console.log("new2", performance.now() - t);
t = performance.now();
// deno-lint-ignore no-explicit-any
const c = await (a as any).clone();
await c.query("select 1");
console.log("clone", performance.now() - t);
t = performance.now();
const dump = await a.dumpDataDir("none");
const d = new PGlite({ loadDataDir: dump });
await d.query("select 1");
console.log("load", performance.now() - t);
