/**
 * The dashboard's stylesheet (on top of `docs.css`), served as /assets/dashboard.css: no inline
 * styles, so the page runs under a strict content security policy.
 * @module
 */

/** The stylesheet. */
export const DASHBOARD_CSS = `
body.dashboard { background: var(--bg); }
.dashboard header.top { background: #fff; }
.live { margin-left: auto; display: flex; gap: 1.2em; align-items: center; font-size: 0.92em; }
.live strong { font-variant-numeric: tabular-nums; }
main.board { max-width: 110em; margin: 0 auto; padding: 1em 1.5em 3em; }
.card, .board section, .chart, .totals > div { background: #fff; border: 1px solid var(--line);
  border-radius: 8px; }
.card { max-width: 34em; margin: 3em auto; padding: 1em 1.5em; }
.card form { display: flex; gap: 0.6em; align-items: end; flex-wrap: wrap; }
.board section { padding: 0.3em 1.2em 1em; margin-top: 1.2em; }
.board section h2 { margin-top: 0.6em; }
label { display: inline-flex; flex-direction: column; font-size: 0.85em; color: var(--muted);
  gap: 0.2em; }
label.check { flex-direction: row; align-items: center; gap: 0.4em; }
input, select, button { font: inherit; font-size: 0.95rem; padding: 0.3em 0.5em;
  border: 1px solid var(--line); border-radius: 5px; background: #fff; color: var(--ink); }
button { cursor: pointer; background: var(--bg); }
button[type="submit"] { background: var(--accent); color: #fff; border-color: var(--accent); }
button.danger { color: var(--bad); border-color: var(--bad); }
button[aria-pressed="true"] { background: #e6edfb; border-color: var(--accent); font-weight: 600; }
.toolbar { display: flex; flex-wrap: wrap; gap: 1em 2em; align-items: end; margin: 0.5em 0 1em; }
.ranges { display: flex; gap: 0.3em; }
.muted { color: var(--muted); font-size: 0.85em; }
.error { color: var(--bad); min-height: 1em; margin: 0.3em 0; }
.totals { display: grid; grid-template-columns: repeat(auto-fit, minmax(11em, 1fr)); gap: 1em; }
.totals > div { padding: 0.6em 1em; }
.totals dt { color: var(--muted); font-size: 0.85em; }
.totals dd { margin: 0; font-size: 1.5em; font-weight: 600; font-variant-numeric: tabular-nums; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(34em, 1fr)); gap: 1em;
  margin-top: 1em; }
.chart { margin: 0; padding: 0.6em 1em 1em; }
.chart figcaption { font-weight: 600; margin-bottom: 0.4em; }
.canvas-box { position: relative; height: 260px; }
.editor { display: flex; flex-wrap: wrap; gap: 0.6em 1em; align-items: end; margin-top: 0.8em;
  padding-top: 0.6em; border-top: 1px dashed var(--line); }
.editor h3 { flex-basis: 100%; margin: 0; font-size: 1em; }
.editor .actions { display: flex; gap: 0.5em; }
.secret { border: 2px solid var(--ok); background: #eefaf2; border-radius: 6px; padding: 0.5em 1em;
  margin: 0.8em 0; }
.secret code { display: block; font-size: 1em; padding: 0.4em; margin: 0.3em 0 0.6em;
  user-select: all; word-break: break-all; }
td .actions { display: flex; gap: 0.3em; flex-wrap: wrap; }
tr.revoked td { color: var(--muted); }
@media (max-width: 800px) { .charts { grid-template-columns: 1fr; } }
`;
