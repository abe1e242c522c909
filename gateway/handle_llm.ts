/**
 * The language-model request path (chat, Responses, Messages): resolve the model, admit, then
 * deliver by passthrough when the upstream speaks the client's wire, else by translation. The
 * lifecycle (`lifecycle.ts`) records and settles whatever happens.
 * @module
 */
import type { ResolvedModel } from "../catalog/catalog.ts";
import type { Converted } from "../core/convert.ts";
import type { CoreRequest, Wire } from "../core/request.ts";
import { mockWire } from "../providers/mock/mock_upstream.ts";
import { clientCodec, upstreamCodec } from "../protocols/registry.ts";
import { prependHistory } from "../protocols/openai_responses/mod.ts";
import type { GatewayDeps, LlmExchange, LlmRequest } from "./exchange.ts";
import { withLifecycle } from "./with_lifecycle.ts";
import { withAttempts } from "./attempt_loop.ts";
import { passthrough } from "./passthrough.ts";
import { type ModelUse, resolveModel } from "./resolve_model.ts";
import {
  previousResponseNotFound,
  responseKeeper,
  type StoredHistory,
  storedHistory,
  wantsStore,
} from "./response_chain.ts";
import { translate } from "./translate.ts";

export type { LlmRequest } from "./exchange.ts";

const USE: Record<Wire, ModelUse> = {
  openai_chat: "chat",
  openai_responses: "responses",
  anthropic_messages: "messages",
};

/** The wire a model's provider is called on for a client speaking `clientWire`. */
function upstreamWire(model: ResolvedModel, clientWire: Wire): Wire {
  switch (model.provider.kind) {
    case "anthropic":
      return "anthropic_messages";
    case "openai":
      return model.openaiWire === "responses" ? "openai_responses" : "openai_chat";
    case "openai_compatible":
      return "openai_chat";
    case "mock":
      return mockWire(clientWire);
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
export function handleLlm(deps: GatewayDeps, request: LlmRequest): Promise<Response> {
  return withLifecycle(deps, request, request.body.stream === true, async (life) => {
    const model = resolveModel(deps.catalog, request.body.model, USE[request.clientWire]);
    life.resolved(model);
    const admitted = life.admit();
    if (admitted) await admitted;
    const chain = request.clientWire === "openai_responses"
      ? await storedHistory(deps, request.key.id, request.body)
      : null;
    const use = USE[request.clientWire];
    return await withAttempts(
      { deps, life, signal: request.signal, model, use },
      (served) => deliver({ ...request, deps, model: served, life }, chain),
    );
  });
}

/** Passthrough or translation to the deployment `exchange.model` is bound to, with
 * gatehouse-held Responses history expanded first. */
async function deliver(exchange: LlmExchange, chain: StoredHistory | null): Promise<Response> {
  const { model, clientWire } = exchange;
  const wire = upstreamWire(model, clientWire);
  if (chain && chain.messages === null && wire !== "openai_responses") {
    throw previousResponseNotFound(chain.id);
  }
  const codec = upstreamCodec(wire, {
    providerName: model.provider.name,
    compat: model.provider.kind === "openai_compatible",
    defaultMaxTokens: model.maxOutputTokens,
  });
  // Same wire and no gatehouse-held history to expand: the fast path.
  if (wire === clientWire && !chain?.messages) return await passthrough(exchange, codec);
  const client = clientCodec(clientWire);
  const decoded = client.decodeRequest(exchange.body);
  const withHistory = chain?.messages
    ? prependHistory(decoded.value, chain.messages)
    : decoded.value;
  const fitted = fitOutputLimit(withHistory, model);
  const warnings = [...decoded.warnings, ...fitted.warnings];
  const keeper = clientWire === "openai_responses" && wantsStore(exchange.body)
    ? responseKeeper(exchange.deps, exchange.key.id, fitted.value)
    : undefined;
  return await translate(exchange, client, codec, fitted.value, warnings, keeper);
}
