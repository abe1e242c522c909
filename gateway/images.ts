/**
 * Image generation: resolved, admitted and settled like every model request, and forwarded by
 * the same passthrough as the language routes (error-body cap included), to an OpenAI images
 * upstream or the mock provider. Images and any token usage go to the ledger.
 * @module
 */
import { createImagesCodec } from "../protocols/openai_images/mod.ts";
import type { GatewayDeps, RouteRequest } from "./exchange.ts";
import { withLifecycle } from "./with_lifecycle.ts";
import { passthrough } from "./passthrough.ts";
import { withAttempts } from "./attempt_loop.ts";
import { resolveModel } from "./resolve_model.ts";

/** Handles `POST /v1/images/generations`. */
export function handleImages(deps: GatewayDeps, request: RouteRequest): Promise<Response> {
  return withLifecycle(deps, request, false, async (life) => {
    const model = resolveModel(deps.catalog, request.body.model, "images");
    life.resolved(model);
    const admitted = life.admit();
    if (admitted) await admitted;
    return await withAttempts(
      { deps, life, signal: request.signal, model, use: "images" },
      (served) =>
        passthrough(
          { deps, life, model: served, body: request.body, signal: request.signal },
          createImagesCodec(served.provider.name),
        ),
    );
  });
}
