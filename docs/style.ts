/**
 * The docs stylesheet, served as /assets/docs.css (no inline styles, so pages run under a strict
 * content security policy).
 * @module
 */

/** The stylesheet. */
export const DOCS_CSS = `
:root { --ink: #1d2433; --muted: #5b6475; --line: #dde2ea; --bg: #f7f8fa; --accent: #2c5fd8;
  --code-bg: #f1f3f7; --ok: #1f7a44; --warn: #9a5b00; --bad: #b3261e; color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: #fff; }
a { color: var(--accent); }
code, pre { font: 0.9em/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
:not(pre) > code { background: var(--code-bg); padding: 0.1em 0.3em; border-radius: 4px;
  overflow-wrap: anywhere; }
pre.code { background: var(--code-bg); border: 1px solid var(--line); border-radius: 6px;
  padding: 0.8em 1em; overflow-x: auto; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 1em 2.5em;
  padding: 0.8em 1.5em; border-bottom: 1px solid var(--line); background: var(--bg); }
.brand { font-weight: 700; font-size: 1.25em; text-decoration: none; color: var(--ink); }
.brand span { font-weight: 400; color: var(--muted); }
dl.addresses { display: flex; flex-wrap: wrap; gap: 0.3em 1.8em; margin: 0; font-size: 0.9em; }
dl.addresses div { display: flex; gap: 0.5em; align-items: baseline; }
dl.addresses dt { color: var(--muted); }
dl.addresses dd { margin: 0; }
.frame { display: flex; align-items: flex-start; max-width: 90em; margin: 0 auto; }
nav { flex: 0 0 15em; padding: 1.2em 1.2em 2em 1.5em; position: sticky; top: 0; }
nav h2 { font-size: 0.8em; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted);
  margin: 1.2em 0 0.3em; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li a { display: block; padding: 0.2em 0.5em; border-radius: 4px; text-decoration: none; }
nav li a[aria-current="page"] { background: #e6edfb; font-weight: 600; }
main { flex: 1 1 auto; min-width: 0; padding: 1em 2em 3em; }
main h1 { margin-top: 0.3em; }
main h2 { margin-top: 1.8em; border-bottom: 1px solid var(--line); padding-bottom: 0.2em; }
table { border-collapse: collapse; width: 100%; margin: 1em 0; font-size: 0.92em; }
th, td { border: 1px solid var(--line); padding: 0.35em 0.55em; text-align: left;
  vertical-align: top; }
th { background: var(--bg); }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.table-wrap { overflow-x: auto; }
table.catalog { font-size: 0.86em; }
table.catalog th, table.catalog td { padding: 0.3em 0.4em; }
table.catalog code, table.routes code { white-space: nowrap; }
table:not(.catalog):not(.routes):not(.refusals) code { word-break: break-word; }
table.catalog .badge { display: block; width: max-content; }
.badge { display: inline-block; font-size: 0.78em; padding: 0.05em 0.5em; border-radius: 999px;
  border: 1px solid currentColor; white-space: nowrap; margin: 0.1em 0.2em 0.1em 0; }
.badge.ok { color: var(--ok); } .badge.warn { color: var(--warn); } .badge.bad { color: var(--bad); }
.badge.info { color: var(--accent); }
.note { border-left: 4px solid var(--accent); background: #eef3fd; padding: 0.6em 1em;
  margin: 1em 0; }
.note.warn { border-color: var(--warn); background: #fdf5e8; }
table.refusals { font-size: 0.86em; }
table.refusals small { font-size: 0.95em; color: var(--muted); }
table.refusals code { word-break: normal; overflow-wrap: normal; }
.columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(22em, 1fr)); gap: 0 1.5em; }
ul.contents { columns: 2 16em; }
.method { font-weight: 700; font-family: ui-monospace, monospace; }
footer { border-top: 1px solid var(--line); color: var(--muted); font-size: 0.85em;
  padding: 1em 1.5em; }
#swagger-ui { margin-top: 1.5em; border-top: 1px solid var(--line); }
@media (max-width: 800px) { .frame { display: block; } nav { position: static; } }
`;
