/**
 * Image generation: forwarded to an OpenAI images upstream with only the model id rewritten, or
 * answered by the mock provider. Images and any token usage go to the ledger.
 * @module
 */
import { upstreamError } from "../protocols/upstream_error.ts";
import { mockImages } from "../providers/mock/mock_image.ts";
import type { KeyRecord } from "../store/store.ts";
import type { GatewayDeps } from "./exchange.ts";
import { openMeter } from "./ledger.ts";
import { resolveModel } from "./resolve_model.ts";
import { upstreamFetch } from "./upstream_fetch.ts";

/** An images request as the route handler hands it over. */
export interface ImagesRequest {
  body: Record<string, unknown>;
  signal: AbortSignal;
  key: KeyRecord;
}

function imagesUsage(body: unknown): { images: number; input: number; output: number } {
  const record = (body ?? {}) as {
    data?: unknown;
    usage?: { input_tokens?: unknown; output_tokens?: unknown };
  };
  const num = (v: unknown) => typeof v === "number" && Number.isFinite(v) ? v : 0;
  return {
    images: Array.isArray(record.data) ? record.data.length : 0,
    input: num(record.usage?.input_tokens),
    output: num(record.usage?.output_tokens),
  };
}

/** Handles `POST /v1/images/generations`. */
export async function handleImages(deps: GatewayDeps, request: ImagesRequest): Promise<Response> {
  const started = Date.now();
  const model = resolveModel(deps.catalog, request.body.model, "images");
  const meter = openMeter(deps, request.key.id, model, "/v1/images/generations", false);
  try {
    if (model.provider.kind === "mock") {
      const n = typeof request.body.n === "number" ? request.body.n : 1;
      const format = request.body.response_format === "url" ? "url" : "b64_json";
      meter.addImages(n);
      meter.close(200);
      return Response.json(mockImages(n, format, started));
    }
    const response = await upstreamFetch({
      provider: model.provider,
      path: "/v1/images/generations",
      body: JSON.stringify({ ...request.body, model: model.upstreamId }),
      signal: request.signal,
      fetch: deps.fetch,
      timeoutMs: deps.config.upstreamTimeoutMs,
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Forwarded as text below; nothing to count.
    }
    if (response.status === 401 || response.status === 403) {
      const error = (parsed as { error?: { message?: string } } | null)?.error;
      throw upstreamError({
        provider: model.provider.name,
        status: response.status,
        message: error?.message ?? text.slice(0, 500),
        headers: response.headers,
      });
    }
    if (response.ok) {
      const usage = imagesUsage(parsed);
      meter.addImages(usage.images);
      meter.add({ inputTokens: usage.input, outputTokens: usage.output });
    }
    meter.close(response.status);
    const headers = new Headers({
      "content-type": response.headers.get("content-type") ?? "application/json",
    });
    const retry = response.headers.get("retry-after");
    if (retry) headers.set("retry-after", retry);
    return new Response(text, { status: response.status, headers });
  } catch (error) {
    meter.fail(error, request.signal.aborted);
    throw error;
  }
}
