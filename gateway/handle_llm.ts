/**
 * The one request path for language models: model lookup → pick the upstream wire → passthrough
 * when the wires match, mock when the provider is the built-in one, translation otherwise. Every
 * request that reaches a model writes one ledger record, failures included.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import type { Converted } from "../core/convert.ts";
import type { CoreRequest, Wire } from "../core/request.ts";
import { clientCodec, upstreamCodec } from "../protocols/registry.ts";
import type { GatewayDeps, LlmExchange, LlmRequest } from "./exchange.ts";
export type { LlmRequest } from "./exchange.ts";
import { openMeter } from "./ledger.ts";
import { respondWithMock } from "./mock.ts";
import { passthrough } from "./passthrough.ts";
import { type ModelUse, resolveModel } from "./resolve_model.ts";
import { translate } from "./translate.ts";
import { prependHistory } from "../protocols/openai_responses/mod.ts";
import {
  previousResponseNotFound,
  responseKeeper,
  storedHistory,
  wantsStore,
} from "./response_chain.ts";

const USE: Record<Wire, ModelUse> = {
  openai_chat: "chat",
  openai_responses: "responses",
  anthropic_messages: "messages",
};

/** Where each wire's requests go on a provider. */
export const WIRE_PATH: Record<Wire, string> = {
  openai_chat: "/v1/chat/completions",
  openai_responses: "/v1/responses",
  anthropic_messages: "/v1/messages",
};

/** The wire a model's provider speaks for language requests. */
export function upstreamWire(model: ResolvedModel): Wire | "mock" {
  switch (model.provider.kind) {
    case "anthropic":
      return "anthropic_messages";
    case "openai":
      return model.openaiWire === "responses" ? "openai_responses" : "openai_chat";
    case "openai_compatible":
      return "openai_chat";
    case "mock":
      return "mock";
  }
}

/** Lowers an output-token limit above the model's catalog maximum (Claude Code asks 128000 of
 * every model), saying so: a translated request must not fail upstream on a limit the client
 * never chose for this model. */
export function fitOutputLimit(request: CoreRequest, model: ResolvedModel): Converted<CoreRequest> {
  const max = model.maxOutputTokens;
  if (
    max === undefined || request.maxOutputTokens === undefined || request.maxOutputTokens <= max
  ) {
    return { value: request, warnings: [] };
  }
  return {
    value: { ...request, maxOutputTokens: max },
    warnings: [{
      field: "max_tokens",
      message: `${request.maxOutputTokens} exceeds ${model.id}'s output limit; lowered to ${max}.`,
    }],
  };
}

/** Handles one chat, responses or messages request. */
export async function handleLlm(deps: GatewayDeps, request: LlmRequest): Promise<Response> {
  const model = resolveModel(deps.catalog, request.body.model, USE[request.clientWire]);
  const meter = openMeter(deps, request.key.id, model, request.route, request.body.stream === true);
  const exchange: LlmExchange = { ...request, deps, model, meter };
  try {
    const wire = upstreamWire(model);
    const client = clientCodec(request.clientWire);
    const chain = request.clientWire === "openai_responses"
      ? await storedHistory(deps, request.key.id, request.body)
      : null;
    if (chain && chain.messages === null && wire !== "openai_responses") {
      throw previousResponseNotFound(chain.id);
    }
    const codec = wire === "mock" ? null : upstreamCodec(wire, {
      providerName: model.provider.name,
      compat: model.provider.kind === "openai_compatible",
      defaultMaxTokens: model.maxOutputTokens,
    });
    // Same wire and no gatehouse-held history to expand: the fast path.
    if (codec && wire === request.clientWire && !chain?.messages) {
      return await passthrough(exchange, codec, WIRE_PATH[wire]);
    }
    const decoded = client.decodeRequest(request.body);
    const withHistory = chain?.messages
      ? prependHistory(decoded.value, chain.messages)
      : decoded.value;
    const fitted = fitOutputLimit(withHistory, model);
    const warnings = [...decoded.warnings, ...fitted.warnings];
    const keeper = request.clientWire === "openai_responses" && wantsStore(request.body)
      ? responseKeeper(deps, request.key.id, fitted.value)
      : undefined;
    if (!codec) return await respondWithMock(exchange, client, fitted.value, warnings, keeper);
    return await translate(exchange, client, codec, fitted.value, warnings, keeper);
  } catch (error) {
    meter.fail(error, request.signal.aborted);
    throw error;
  }
}
