/**
 * `POST /v1/messages/count_tokens` for every model: Anthropic models ask their provider's own
 * counting endpoint; every other model is counted locally with a real tokenizer. Counting is
 * free, but it is a request like any other: resolved, admitted and settled into the ledger.
 * @module
 */
import { countTokensPath } from "../protocols/anthropic_messages/mod.ts";
import { clientCodec, upstreamCodec } from "../protocols/registry.ts";
import { countRequestTokens } from "../tokens/count_tokens.ts";
import type { GatewayDeps } from "./exchange.ts";
import type { LlmRequest } from "./handle_llm.ts";
import { withLifecycle } from "./with_lifecycle.ts";
import { passthrough } from "./passthrough.ts";
import { withAttempts } from "./attempt_loop.ts";
import { boundTo } from "./attempt_plan.ts";
import { resolveModel } from "./resolve_model.ts";
import { warningHeaders } from "./warnings.ts";
import { GatewayError } from "../core/errors.ts";

/** Handles a count request (`clientWire` is `anthropic_messages`). */
export function handleCountTokens(deps: GatewayDeps, request: LlmRequest): Promise<Response> {
  return withLifecycle(deps, request, false, async (life) => {
    const model = resolveModel(deps.catalog, request.body.model, "count_tokens");
    life.resolved(model, {});
    const admitted = life.admit();
    if (admitted) await admitted;
    const exchange = { ...request, deps, model, life };
    // A model with an Anthropic deployment asks the provider (retried like any call); every
    // other model is counted here, and so is an Anthropic one whose every attempt failed (a
    // count is an estimate the client plans with: a local one beats an error).
    let providerFailed: GatewayError | null = null;
    const counting = model.deployments.filter((d) => d.provider.kind === "anthropic");
    if (counting.length > 0) {
      // Bound to an Anthropic deployment: the model's first one may be another provider's.
      const anthropic = { ...boundTo(model, counting[0]!), fallbacks: [], deployments: counting };
      try {
        return await withAttempts(
          { deps, life, signal: request.signal, model: anthropic, use: "count_tokens" },
          (served) => {
            const codec = upstreamCodec("anthropic_messages", {
              providerName: served.provider.name,
            });
            return passthrough({ ...exchange, model: served }, { ...codec, path: countTokensPath });
          },
        );
      } catch (error) {
        if (!(error instanceof GatewayError) || request.signal.aborted || life.shutdownError) {
          throw error;
        }
        providerFailed = error;
      }
    }
    const decoded = clientCodec("anthropic_messages").decodeRequest({
      max_tokens: 1,
      ...request.body,
    });
    const warnings = providerFailed === null ? decoded.warnings : [...decoded.warnings, {
      field: "model",
      message: `Counted by gatehouse's tokenizer: the provider's count failed ` +
        `(${providerFailed.message}).`,
    }];
    const headers = warningHeaders(warnings, exchange);
    headers.set("content-type", "application/json");
    life.delivered("local");
    life.answered(200);
    return headers.respond(
      JSON.stringify({ input_tokens: countRequestTokens(decoded.value) }),
      200,
    );
  });
}
