/**
 * The Observability page's dashboard section: where it is, how it signs in, what it shows and
 * which admin routes it reads.
 * @module
 */
import { html, type Part } from "../html.ts";
import type { Site } from "../site.ts";

/** The section. */
export function dashboardSection(site: Site): Part {
  return html`
    <h2 id="dashboard">The dashboard</h2>
    <p><a href="${site.link("/dashboard")}">${site.docs}/dashboard</a>, on this docs host. Sign in
    with an <strong>admin key</strong>: the page keeps it in the browser tab's session storage
    only (closing the tab forgets it) and sends it as an <code>Authorization: Bearer</code> header
    to the admin API, which the docs host hands to the gateway in the same process (same origin;
    the key is never put in a URL). Its script and chart library (Chart.js) are served from this
    host: the page works without internet access.</p>
    <ul>
      <li>spend and tokens over time, stacked by model, key or team; requests and error rate;
      p50 and p95 latency and time to first byte — for the last 24 hours (hourly), 7 days (six
      hours) or 30 days (daily);</li>
      <li>keys and teams with their policies, spend in the range and budget left; create, edit,
      rotate and revoke keys (a new secret is shown once), create, edit and delete teams;</li>
      <li>deployments with their health, and the requests in flight and streams open now.</li>
    </ul>
    <p>The figures are summed in the database (<code>GET /admin/v1/usage/series</code>, also for
    your own tools), not in the browser: with 100,000 ledger rows a 30-day view is one query of a
    few hundred milliseconds. On SQLite that query runs on the gateway's own thread (the first
    worker's, with <code>--workers</code>) and holds its requests meanwhile, each refresh (every
    30 s while the page is open); on Postgres it does not. <code>GET /admin/v1/status</code> gives
    the live counts (with workers, of the worker that answered).</p>
    <p>The docs host hands <code>/admin/v1/…</code> to the gateway so the page can call it from
    its own origin: the admin API is then reachable on the docs port too, with the same admin-key
    check. A proxy or firewall rule that guards <code>/admin/v1</code> on the API port must guard
    the docs port as well (or <code>DOCS_PORT=off</code>).</p>
  `;
}
