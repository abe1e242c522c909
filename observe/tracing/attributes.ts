/**
 * The names and attributes of gatehouse's spans: OpenTelemetry GenAI semantic conventions
 * (`gen_ai.*`), HTTP ones (`http.*`, `server.*`, `error.type`) and gatehouse's own
 * (`gatehouse.*`). Pure functions over what the observer is told, no OpenTelemetry code.
 *
 * Only what the ledger row holds goes into a span: ids, model names, counts, statuses, cost.
 * Never a prompt, an output, a key's secret or a provider's credential.
 * @module
 */
import type { ResolvedModel } from "../../catalog/catalog.ts";
import type { ProviderKind } from "../../catalog/schema.ts";
import type { AttemptRecord, UsageRecord } from "../../store/store.ts";
import type { RequestStart, SettledRequest } from "../observer.ts";
import { clientText } from "../logs/format.ts";

/** An attribute value as the OpenTelemetry API takes it. */
export type SpanValue = string | number | boolean | string[];
/** A span's attributes. */
export type SpanAttributes = Record<string, SpanValue>;

/** `gen_ai.operation.name` of a route. The three conversation APIs are `chat`; an image
 * generation is `generate_content` (the semconv value for multimodal content generation; there
 * is no image-specific one); a token count has no semconv value and is `count_tokens`. */
export function operationOf(route: string): string {
  switch (route) {
    case "/v1/images/generations":
      return "generate_content";
    case "/v1/messages/count_tokens":
      return "count_tokens";
    default:
      return "chat";
  }
}

/** `gen_ai.provider.name` of a provider kind: the semconv well-known `openai` and `anthropic`.
 * An OpenAI-compatible provider is called through the OpenAI API and reported as `openai`, as
 * the conventions ask of a client that cannot tell the host behind the API (`server.address`
 * and `gatehouse.provider` name it); the in-process demo provider is `gatehouse.mock`. */
export function providerNameOf(kind: ProviderKind): string {
  switch (kind) {
    case "anthropic":
      return "anthropic";
    case "mock":
      return "gatehouse.mock";
    default:
      return "openai";
  }
}

/** The server span's name: `POST /v1/chat/completions` (HTTP semconv: method and route). */
export function serverSpanName(route: string): string {
  return `POST ${route}`;
}

/** A client span's name: `{gen_ai.operation.name} {gen_ai.request.model}` (GenAI semconv). */
export function clientSpanName(operation: string, model: string): string {
  return `${operation} ${model}`;
}

/** The server span's attributes known at arrival (the sampler sees them too). */
export function requestAttributes(start: RequestStart, operation: string): SpanAttributes {
  const attributes: SpanAttributes = {
    "http.request.method": "POST",
    "http.route": start.route,
    "gen_ai.operation.name": operation,
    "gen_ai.request.stream": start.stream,
    "gatehouse.request_id": start.requestId,
    "gatehouse.key.id": start.key.id,
  };
  // The client chose these two: cut, stripped of control characters and key-shaped text, as
  // in the request log.
  if (start.model !== "") attributes["gen_ai.request.model"] = clientText(start.model)!;
  if (start.maxTokens !== null) attributes["gen_ai.request.max_tokens"] = start.maxTokens;
  if (start.key.team !== null) attributes["gatehouse.team.id"] = start.key.team;
  const userAgent = clientText(start.userAgent);
  if (userAgent !== null) attributes["user_agent.original"] = userAgent;
  return attributes;
}

/** `server.address` and `server.port` of a provider root (none for the in-process mock). */
export function serverOf(baseUrl: string): SpanAttributes {
  if (baseUrl === "") return {};
  try {
    const url = new URL(baseUrl);
    const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
    // Credentials in a URL (`https://user:pass@host`) never leave: only the host is kept.
    return { "server.address": url.hostname, "server.port": port };
  } catch {
    return {};
  }
}

/** A client span's attributes when its attempt begins on `model`'s bound deployment. */
export function attemptAttributes(
  model: ResolvedModel,
  attempt: number,
  operation: string,
  start: RequestStart,
): SpanAttributes {
  const deployment = model.deployment;
  const attributes: SpanAttributes = {
    "gen_ai.operation.name": operation,
    "gen_ai.provider.name": providerNameOf(deployment.provider.kind),
    "gen_ai.request.model": deployment.upstreamId,
    "http.request.method": "POST",
    "gatehouse.attempt": attempt,
    "gatehouse.deployment": deployment.id,
    "gatehouse.provider": deployment.provider.name,
    "gatehouse.model": model.id,
    ...serverOf(deployment.provider.baseUrl),
  };
  if (start.maxTokens !== null) attributes["gen_ai.request.max_tokens"] = start.maxTokens;
  return attributes;
}

/** What an attempt's end adds to its client span, and its `error.type` (null: it succeeded).
 * An error status is named by its code (HTTP semconv); a failure without one by its result
 * (`unreachable`, `connect_timeout`, `header_timeout`, `cut`, …). */
export function attemptEndAttributes(
  record: AttemptRecord,
): { attributes: SpanAttributes; error: string | null } {
  const attributes: SpanAttributes = { "gatehouse.attempt.result": record.result };
  if (record.status > 0) attributes["http.response.status_code"] = record.status;
  let error: string | null = null;
  if (record.status >= 400) error = String(record.status);
  else if (record.result !== "ok") error = record.result;
  if (error !== null) attributes["error.type"] = error;
  return { attributes, error };
}

/** The answer's attributes (served model, upstream id, usage, stop reasons): on the server
 * span and on the client span of the attempt that answered. */
export function answerAttributes(request: SettledRequest): SpanAttributes {
  const record: UsageRecord = request.record;
  const attributes: SpanAttributes = {
    "gen_ai.usage.input_tokens": record.inputTokens,
    "gen_ai.usage.output_tokens": record.outputTokens,
  };
  if (record.servedModel !== "") attributes["gen_ai.response.model"] = record.servedModel;
  if (record.upstreamId !== null) attributes["gen_ai.response.id"] = record.upstreamId;
  if (record.cachedTokens > 0) {
    attributes["gen_ai.usage.cache_read.input_tokens"] = record.cachedTokens;
  }
  if (record.cacheWriteTokens > 0) {
    attributes["gen_ai.usage.cache_creation.input_tokens"] = record.cacheWriteTokens;
  }
  if (record.reasoningTokens > 0) {
    attributes["gen_ai.usage.reasoning.output_tokens"] = record.reasoningTokens;
  }
  if (request.finishReasons.length > 0) {
    attributes["gen_ai.response.finish_reasons"] = [...request.finishReasons];
  }
  return attributes;
}

/** What the settled request adds to its server span, and its `error.type` (null: outcome
 * `ok`): the refusal's code for a refusal, else the outcome. `provider` is the
 * `gen_ai.provider.name` of the last attempt (null when none was made). */
export function settledAttributes(
  request: SettledRequest,
  provider: string | null,
): { attributes: SpanAttributes; error: string | null } {
  const record = request.record;
  const attributes: SpanAttributes = {
    ...answerAttributes(request),
    "http.response.status_code": record.status,
    "gatehouse.outcome": record.outcome,
    "gatehouse.attempts": record.attempts,
    "gatehouse.cost_usd": record.cost,
  };
  if (provider !== null) attributes["gen_ai.provider.name"] = provider;
  if (record.upstream !== "") attributes["gatehouse.provider"] = record.upstream;
  if (record.images > 0) attributes["gatehouse.images"] = record.images;
  if (request.overheadMs !== null) attributes["gatehouse.overhead_ms"] = request.overheadMs;
  if (request.firstByteMs !== null) attributes["gatehouse.first_byte_ms"] = request.firstByteMs;
  if (request.mode !== null) attributes["gatehouse.mode"] = request.mode;
  if (request.refusal !== null) attributes["gatehouse.refusal"] = request.refusal;
  if (request.limit !== null) attributes["gatehouse.limit"] = request.limit;
  const error = record.outcome === "ok" ? null : request.refusal ?? record.outcome;
  if (error !== null) attributes["error.type"] = error;
  return { attributes, error };
}
