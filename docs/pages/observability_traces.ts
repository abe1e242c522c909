/**
 * The Observability page's traces section: the `OTEL_*` settings honoured, the two spans of a
 * request and their attributes, the trace context in and out, and what never goes into a span.
 * Operation and provider names are read from `observe/tracing/attributes.ts`.
 * @module
 */
import { operationOf, providerNameOf } from "../../observe/tracing/attributes.ts";
import { SAMPLERS } from "../../observe/tracing/settings.ts";
import { code, html, type Part } from "../html.ts";

const SETTINGS: [string, Part][] = [
  [
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    html`the collector's base URL (<code>/v1/traces</code> is appended); setting it (or the next)
    turns traces on`,
  ],
  ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "the traces URL, used as given"],
  [
    "OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_HEADERS",
    html`headers sent with every export (<code>key=value,…</code>; the traces one wins per
    key), e.g. a collector's API key`,
  ],
  ["OTEL_EXPORTER_OTLP_TIMEOUT, …_TRACES_TIMEOUT", "an export's timeout, ms (10000)"],
  [
    "OTEL_SERVICE_NAME",
    html`the <code>service.name</code> resource attribute (<code>gatehouse</code>)`,
  ],
  ["OTEL_RESOURCE_ATTRIBUTES", "more resource attributes (key=value,…)"],
  [
    "OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG",
    html`${SAMPLERS.map((s, i) => html`${i > 0 ? ", " : ""}<code>${s}</code>`)} (default
    <code>parentbased_always_on</code>: an incoming trace's sampled flag decides)`,
  ],
  [
    "OTEL_BSP_SCHEDULE_DELAY, OTEL_BSP_EXPORT_TIMEOUT, OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
    "the batch processor: spans are exported in batches, off the request path",
  ],
  [
    "OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER",
    html`<code>true</code> / <code>none</code> turn traces off`,
  ],
];

const SERVER_ATTRIBUTES =
  "http.request.method, http.route, http.response.status_code, gen_ai.operation.name, " +
  "gen_ai.provider.name, gen_ai.request.model, gen_ai.request.max_tokens, " +
  "gen_ai.request.stream, gen_ai.response.model, gen_ai.response.id, " +
  "gen_ai.response.finish_reasons, gen_ai.usage.input_tokens, gen_ai.usage.output_tokens, " +
  "gen_ai.usage.cache_read.input_tokens, gen_ai.usage.cache_creation.input_tokens, " +
  "gen_ai.usage.reasoning.output_tokens, user_agent.original, error.type, " +
  "gatehouse.request_id, gatehouse.key.id, gatehouse.team.id, gatehouse.outcome, " +
  "gatehouse.attempts, gatehouse.cost_usd, gatehouse.provider, gatehouse.images, " +
  "gatehouse.overhead_ms, gatehouse.first_byte_ms, gatehouse.mode, gatehouse.refusal, " +
  "gatehouse.limit";

const CLIENT_ATTRIBUTES =
  "gen_ai.operation.name, gen_ai.provider.name, gen_ai.request.model (the provider's model " +
  "id), gen_ai.request.max_tokens, http.request.method, http.response.status_code, " +
  "server.address, server.port, error.type, gatehouse.attempt, gatehouse.attempt.result, " +
  "gatehouse.deployment, gatehouse.provider, gatehouse.model; the attempt that answered also " +
  "gets the usage, response model and finish reasons";

const list = (names: string) =>
  names.split(", ").map((name, i) => html`${i > 0 ? ", " : ""}<code>${name}</code>`);

/** The section. */
export function tracesSection(): Part {
  return html`
    <h2 id="traces">OpenTelemetry traces</h2>
    <p>Set <code>OTEL_EXPORTER_OTLP_ENDPOINT</code> (or
    <code>OTEL_EXPORTER_OTLP_TRACES_ENDPOINT</code>) and gatehouse exports spans over
    <strong>OTLP/HTTP</strong> (JSON) with the maintained OpenTelemetry JS SDK. Without it no
    OpenTelemetry code is loaded or run.</p>
    ${code(
      "OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318 OTEL_SERVICE_NAME=gatehouse-eu deno task start",
      "sh",
    )}
    <table>
      <thead>
        <tr>
          <th>variable</th>
          <th>meaning</th>
        </tr>
      </thead>
      <tbody>${SETTINGS.map(([name, meaning]) =>
        html`
          <tr>
            <td>${list(name)}</td>
            <td>${meaning}</td>
          </tr>
        `
      )}</tbody>
    </table>
    <h3 id="spans">Spans</h3>
    <p>Every model request is one <strong>server</strong> span, <code>POST /v1/chat/completions</code>
    (its route), from its arrival to its settle (a stream: its end). Every upstream call is one
    <strong>client</strong> span under it, named <code>{operation} {model}</code> per the GenAI
    conventions (<code>chat gpt-5</code>): a retried or fallen-back request has one per attempt,
    the failed ones marked ERROR with <code>error.type</code> (the status, or
    <code>unreachable</code>, <code>header_timeout</code>, …). A refusal before any call has no
    client span; its server span carries the refusal's code.</p>
    <p><code>gen_ai.operation.name</code>: <code>${operationOf("/v1/chat/completions")}</code> for
    chat, Messages and Responses; <code>${operationOf("/v1/images/generations")}</code> for image
    generation; <code>${operationOf("/v1/messages/count_tokens")}</code> for a token count (no
    convention value fits). <code>gen_ai.provider.name</code>:
    <code>${providerNameOf("openai")}</code>, <code>${providerNameOf("anthropic")}</code>; an
    OpenAI-compatible provider is <code>${providerNameOf("openai_compatible")}</code> (as the
    conventions ask when the host behind the OpenAI API is not known; <code>server.address</code>
    and <code>gatehouse.provider</code> name it); the demo provider
    <code>${providerNameOf("mock")}</code>.</p>
    <p>Server span: ${list(SERVER_ATTRIBUTES)}.</p>
    <p>Client spans: ${list(CLIENT_ATTRIBUTES.split("; ")[0]!)}; ${CLIENT_ATTRIBUTES.split(
      "; ",
    )[1]}.</p>
    <h3 id="trace-context">Trace context</h3>
    <p>An incoming W3C <code>traceparent</code> (and <code>tracestate</code>) is continued: the
    server span is its child, in the same trace. Each upstream call carries a
    <code>traceparent</code> naming its client span, so a provider or a proxy that traces joins
    the same trace. A trace the caller did not sample is not exported (the upstream still gets the
    context, unsampled). A malformed <code>traceparent</code> starts a new trace.</p>
    <p><strong>Never in a span:</strong> prompts, outputs, tool arguments, a key's secret or a
    provider's credential; upstream addresses appear as host and port only. A collector that is
    down never slows or fails a request: the first failed export is one warning, the recovery one
    info line; at shutdown the queued spans are flushed (at most 5 s).</p>
    <p>With <code>--workers N</code> each worker exports its own spans, with its own
    <code>service.instance.id</code>.</p>
  `;
}
