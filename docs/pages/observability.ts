/**
 * Observability: for operators wiring gatehouse into what they already run — Prometheus and
 * Grafana (`/metrics`), an OpenTelemetry collector (traces), a log pipeline (request and
 * lifecycle lines) — and the dashboard on this host. The sections live in `observability_*.ts`;
 * series, settings and example lines are read from the code that produces them.
 * @module
 */
import { html } from "../html.ts";
import type { Site } from "../site.ts";
import type { DocsPage } from "./page.ts";
import { dashboardSection } from "./observability_dashboard.ts";
import { logsSection } from "./observability_logs.ts";
import { metricsSection } from "./observability_metrics.ts";
import { tracesSection } from "./observability_traces.ts";

/** The page's path. */
export const OBSERVABILITY_PATH = "/observability";

const CONTENTS: [string, string][] = [
  ["metrics", "Prometheus metrics"],
  ["metrics-workers", "Workers and several instances"],
  ["scrape-config", "Scrape config and Grafana queries"],
  ["traces", "OpenTelemetry traces"],
  ["logs", "Logs"],
  ["dashboard", "The dashboard"],
];

/** `/observability`. */
export const observabilityPage: DocsPage = {
  path: OBSERVABILITY_PATH,
  title: "Observability",
  render: (site: Site) =>
    html`
      <p>Who is spending what on which model, is it slow because of gatehouse or the provider, and
      what is failing right now: gatehouse answers in the tools you already run. Prometheus
      scrapes <code>/metrics</code>; an OpenTelemetry collector receives a trace per request with
      the GenAI attributes; a log pipeline reads one JSON line per request; and the
      <a href="${site.link("/dashboard")}">dashboard</a> on this host shows spend, latency, keys
      and deployments at a glance. The ledger behind all of it is described under
      <a href="${site.link("/reliability")}#request-log">the request log</a>.</p>
      <ul class="contents">${CONTENTS.map(([id, label]) =>
        html`<li><a href="#${id}">${label}</a></li>`
      )}</ul>
      ${metricsSection(site)} ${tracesSection()} ${logsSection()} ${dashboardSection(site)}
    `,
};
