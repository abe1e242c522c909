/**
 * `POST /v1/messages/count_tokens` for every model: Anthropic models ask their provider's own
 * counting endpoint; every other model is counted locally with a real tokenizer.
 * @module
 */
import { clientCodec, upstreamCodec } from "../protocols/registry.ts";
import { countRequestTokens } from "../tokens/count_tokens.ts";
import type { GatewayDeps } from "./exchange.ts";
import type { LlmRequest } from "./handle_llm.ts";
import { openMeter } from "./ledger.ts";
import { passthrough } from "./passthrough.ts";
import { resolveModel } from "./resolve_model.ts";
import { warningHeaders } from "./warnings.ts";

/** Handles a count request (`clientWire` is `anthropic_messages`). */
export async function handleCountTokens(deps: GatewayDeps, request: LlmRequest): Promise<Response> {
  const model = resolveModel(deps.catalog, request.body.model, "count_tokens");
  // Counting is free: the record is kept with no price so the ledger shows every request.
  const meter = openMeter(deps, request.key.id, { ...model, pricing: {} }, request.route, false);
  const exchange = { ...request, deps, model, meter };
  try {
    if (model.provider.kind === "anthropic") {
      const codec = upstreamCodec("anthropic_messages", { providerName: model.provider.name });
      return await passthrough(exchange, codec, "/v1/messages/count_tokens");
    }
    const decoded = clientCodec("anthropic_messages").decodeRequest({
      max_tokens: 1,
      ...request.body,
    });
    const headers = warningHeaders(decoded.warnings, exchange);
    headers.set("content-type", "application/json");
    meter.close(200);
    return new Response(JSON.stringify({ input_tokens: countRequestTokens(decoded.value) }), {
      headers,
    });
  } catch (error) {
    meter.fail(error, request.signal.aborted);
    throw error;
  }
}
