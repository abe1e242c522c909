/**
 * Performance: what gatehouse costs over a bare proxy, measured by the bench and published from
 * its results (`docs/performance.json`, `deno task bench --publish`): throughput at c=32 and
 * latency at c=1 against direct calls and a minimal Deno fetch proxy, CPU per request, the
 * deployment shapes of the real `main.ts`, many long streams, and the bench's checks against
 * its targets, passed or missed.
 * @module
 */
import {
  type Cell,
  type Check,
  PERFORMANCE,
  type PerformanceData,
  type ThroughputRow,
} from "../performance_data.ts";
import { code, html, type Part } from "../html.ts";
import type { DocsPage } from "./page.ts";

/** The page's path. */
export const PERFORMANCE_PATH = "/performance";

const int = (value: number) => Math.round(value).toLocaleString("en-US");
const ms = (value: number) => `${value.toFixed(3)} ms`;

/** `0.76×` of `base`, or "" without both. */
function share(cell: Cell | null, base: Cell | null): string {
  return cell === null || base === null || base.rps === 0
    ? ""
    : `${(cell.rps / base.rps).toFixed(2)}×`;
}

function rpsCell(cell: Cell | null, base: Cell | null): Part {
  if (cell === null) return html`<td></td>`;
  const ratio = share(cell, base);
  return html`<td>${int(cell.rps)}${
    ratio === "" ? "" : html`
      <small>(${ratio})</small>
    `
  }</td>`;
}

const cpu = (cell: Cell | null) =>
  html`<td>${cell?.cpuUs == null ? "" : cell.cpuUs.toFixed(0)}</td>`;

function throughputTable(data: PerformanceData): Part {
  const rows = data.throughput.filter((row) => row.concurrency > 1);
  return html`
    <table>
      <thead>
        <tr>
          <th>scenario (c=${rows[0]?.concurrency ?? 32})</th>
          <th>direct req/s</th>
          <th>proxy req/s</th>
          <th>gatehouse req/s (× proxy)</th>
          <th>everything on req/s (× proxy)</th>
          <th>CPU µs/req: proxy · gatehouse · everything on</th>
        </tr>
      </thead>
      <tbody>${rows.map((row) =>
        html`
          <tr>
            <td>${row.label}</td>
            ${rpsCell(row.direct, null)} ${rpsCell(row.proxy, null)} ${rpsCell(
              row.gatehouse,
              row.proxy,
            )} ${rpsCell(row.everythingOn, row.proxy)}
            <td>${[row.proxy, row.gatehouse, row.everythingOn].map((c) =>
              c?.cpuUs == null ? "–" : c.cpuUs.toFixed(0)
            ).join(" · ")}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

function latencyTable(data: PerformanceData): Part {
  const rows = data.throughput.filter((row) => row.concurrency === 1);
  const added = (cell: Cell | null, base: Cell | null) =>
    cell === null || base === null
      ? ""
      : `${cell.p50Ms - base.p50Ms >= 0 ? "+" : ""}${(cell.p50Ms - base.p50Ms).toFixed(3)} ms`;
  return html`
    <table>
      <thead>
        <tr>
          <th>scenario (c=1)</th>
          <th>direct p50</th>
          <th>proxy p50</th>
          <th>gatehouse p50 (over the proxy)</th>
          <th>everything on p50 (over the proxy)</th>
        </tr>
      </thead>
      <tbody>${rows.map((row) =>
        html`
          <tr>
            <td>${row.label}</td>
            <td>${row.direct ? ms(row.direct.p50Ms) : ""}</td>
            <td>${row.proxy ? ms(row.proxy.p50Ms) : ""}</td>
            <td>${row.gatehouse ? ms(row.gatehouse.p50Ms) : ""} <small>${added(
              row.gatehouse,
              row.proxy,
            )}</small></td>
            <td>${row.everythingOn ? ms(row.everythingOn.p50Ms) : ""} <small>${added(
              row.everythingOn,
              row.proxy,
            )}</small></td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

function deploymentsTable(data: PerformanceData): Part {
  if (data.deployments.length === 0) return html`<p>Not measured in this publication.</p>`;
  return html`
    <table>
      <thead>
        <tr>
          <th>main.ts as</th>
          <th>scenario</th>
          <th>gatehouse req/s (× proxy)</th>
          <th>proxy req/s</th>
          <th>gatehouse CPU µs/req</th>
          <th>req/s per core of gatehouse CPU</th>
        </tr>
      </thead>
      <tbody>${data.deployments.map((row) =>
        html`
          <tr>
            <td>${row.config}</td>
            <td>${row.scenario}</td>
            ${rpsCell(row.gatehouse, row.proxy)} ${rpsCell(row.proxy, null)} ${cpu(row.gatehouse)}
            <td>${row.gatehouse.cpuUs ? int(1e6 / row.gatehouse.cpuUs) : ""}</td>
          </tr>
        `
      )}</tbody>
    </table>
  `;
}

function streamsTable(data: PerformanceData): Part {
  if (data.streams.length === 0) return html`<p>Not measured in this publication.</p>`;
  return html`
    <table>
      <thead>
        <tr>
          <th>through</th>
          <th>streams (completed)</th>
          <th>gap beyond the upstream's: p99 · max</th>
          <th>RSS idle → peak → after 3 s → after 20 s</th>
          <th>bytes per open stream</th>
          <th>CPU per chunk (× the upstream's)</th>
        </tr>
      </thead>
      <tbody>${data.streams.map((run) =>
        html`
          <tr>
            <td>${run.target}</td>
            <td>${int(run.streams)} (${int(run.completed)})</td>
            <td>${int(run.gapP99Ms)} ms · ${int(run.gapMaxMs)} ms</td>
            <td>${int(run.rssIdleMb)} → ${int(run.rssPeakMb)} → ${int(
              run.rssAfterMb,
            )} → ${typeof run.rssSettledMb === "number" ? int(run.rssSettledMb) : "—"} MB</td>
            <td>${int(run.bytesPerStream)}</td>
            <td>${run.cpuPerChunk
              ? `${run.cpuPerChunk.us} µs (${run.cpuPerChunk.timesUpstream}×)`
              : "—"}</td>
          </tr>
        `
      )}</tbody>
    </table>
    <p><small>${data.streams[0]?.shape}.</small></p>
  `;
}

/** Gatehouse and Portkey's gateway side by side, per JSON passthrough scenario: the shape of
 * issue #19's table. */
function portkeyTable(data: PerformanceData): Part {
  const scenarios = [
    ...new Set(data.throughput.filter((row) => row.portkey).map((row) => row.scenario)),
  ];
  if (scenarios.length === 0) return html`<p>Not measured in this publication.</p>`;
  const row = (scenario: string, concurrency: number) =>
    data.throughput.find((r) => r.scenario === scenario && r.concurrency === concurrency);
  const high = Math.max(...data.throughput.map((r) => r.concurrency));
  const targets = [
    ["direct", (r: ThroughputRow) => r.direct],
    ["minimal proxy", (r: ThroughputRow) => r.proxy],
    ["gatehouse", (r: ThroughputRow) => r.gatehouse],
    ["Portkey", (r: ThroughputRow) => r.portkey ?? null],
  ] as const;
  return html`
    <table>
      <thead>
        <tr>
          <th>scenario</th>
          <th>target</th>
          <th>c=1 p50</th>
          <th>c=1 req/s</th>
          <th>c=${high} req/s (× proxy)</th>
          <th>CPU µs/req at c=${high}</th>
        </tr>
      </thead>
      <tbody>${scenarios.flatMap((scenario) => {
        const low = row(scenario, 1);
        const top = row(scenario, high);
        return targets.map(([name, cell]) => {
          const one = low ? cell(low) : null;
          const many = top ? cell(top) : null;
          return html`
            <tr>
              <td>${low?.label ?? scenario}</td>
              <td>${name}</td>
              <td>${one ? ms(one.p50Ms) : ""}</td>
              <td>${one ? int(one.rps) : ""}</td>
              ${rpsCell(many, top?.proxy ?? null)} ${cpu(many)}
            </tr>
          `;
        });
      })}</tbody>
    </table>
  `;
}

function checksList(checks: Check[]): Part {
  return html`<ul>${
    checks.map((check) =>
      html`<li><strong>${check.pass ? "PASS" : "MISS"}</strong> ${check.name}: ${check.measured}
      (target ${check.target})</li>`
    )
  }</ul>`;
}

/** The scenario of a coding agent's request at its real size (`bench/agent_body.ts`). */
const AGENT_SCENARIO = "agent-json";

/** Why gatehouse stays near half the proxy on that scenario; shown when the data has it. */
const agentBodyNote = html`
  <p>The <em>56 kB agent body</em> rows send a coding agent's request at its real size (a
  system prompt, tools, a file the agent read, with non-ASCII text). There the gap to the
  proxy is mostly work the proxy never does: it passes the body on unread, while gatehouse
  must decode, parse and validate it to route, limit and meter the request. Decoding and
  parsing that body alone took 160–230 µs on a 2-core box where the proxy's whole request
  took about 280 µs, so at this size gatehouse stays near half the proxy's throughput. It
  does not encode the body again: the client's own bytes go upstream with only the model
  replaced.</p>
`;

/** `/performance`. */
export const performancePage: DocsPage = {
  path: PERFORMANCE_PATH,
  title: "Performance",
  render: () => {
    const data = PERFORMANCE;
    return html`
      <p>What gatehouse costs, measured the way a user comparing gateways would: an external load
      generator (<code>wrk</code>) against a fake upstream on loopback that speaks the providers'
      wire formats, taking turns in short slices with two baselines in the same run — calling the
      upstream <strong>directly</strong>, and a <strong>minimal Deno fetch proxy</strong>
      (method, headers and body passed through; no auth, parsing or ledger). Gatehouse does all
      of its work on every request: key check, body and schema, routing, the attempt stage, usage
      tapping, one ledger row, metrics. <em>Everything on</em> adds every key and team policy,
      a JSON log line per request and the same metrics.</p>
      <p>Measured ${data.measuredAt.slice(0, 10)} at commit <code>${data.commit}</code> on
      ${data.machine}; ${data.method}. The load generator, the fake upstream and the gateway share
      these cores, so requests per second say how the cores were split as much as what each
      target costs; <strong>CPU µs per request</strong> (the serving process's CPU time, every
      thread, divided by the requests it served) does not depend on that split.</p>

      <h2 id="throughput">Throughput at c=32</h2>
      ${throughputTable(data)} ${data.throughput.some((row) => row.scenario === AGENT_SCENARIO)
        ? agentBodyNote
        : ""}
      <h2 id="latency">Latency at c=1</h2>
      ${latencyTable(data)}
      <h2 id="portkey">Against Portkey's gateway</h2>
      <p>Portkey's open-source gateway (<code>@portkey-ai/gateway</code>, the version in
      <code>bench/portkey.ts</code>, on Node), measured in the same turns on the same upstream
      call, on the JSON passthrough scenarios: its streamed chat answers fail on this version
      (HTTP 500 from its own header handling), so streams are not compared.</p>
      ${portkeyTable(data)}
      <h2 id="checks">Against the targets</h2>
      ${checksList(data.checks)}

      <h2 id="deployments">The real main.ts: workers, Postgres and Redis</h2>
      <p>The real <code>main.ts</code> as a process (SQLite file or Postgres + Redis; with
      <code>--workers 2</code>, two worker threads on one port), measured in turns with the proxy.
      On this 2-core box a second worker can only use what wrk and the upstream leave of the
      other core: read its row for CPU per request (the per-core cost), not for scaling.</p>
      ${deploymentsTable(data)} ${checksList(data.deploymentChecks)}

      <h2 id="streams">Many long streams</h2>
      <p>Paced chat streams held open at once through one process; every stream opens two
      connections in the gateway (client and upstream), so the machine's open-file limit caps the
      count. The other rows are the same streams read through the minimal Deno proxy
      (<code>proxy</code>) and straight from the fake upstream (<code>direct</code>: a
      <code>Deno.serve</code> server writing the paced streams itself, one connection each). They
      are the runtime's own cost of holding a stream open, with no gateway work: what gatehouse
      cannot go below while it runs on Deno.</p>
      ${streamsTable(data)}

      <h2 id="reproduce">Reproduce</h2>
      ${code(`
apt-get install -y wrk
deno task bench                 # throughput and latency, every scenario (about 10 minutes)
deno task bench --only=scale    # main.ts: 1 and 2 workers, SQLite and Postgres + Redis
deno task bench --only=streams  # many long streams through one process
deno task bench --publish       # writes docs/performance.json, which this page shows
deno task bench --profile=chat-json   # where the gateway's CPU goes
deno task bench --gc=chat-json        # bytes allocated and promoted a request, GC pauses
deno task bench --allocations=chat-json   # where those bytes are allocated, by function
deno task bench --compare=HEAD~3      # a change against its base, both builds running at once
`)}
    `;
  },
};
