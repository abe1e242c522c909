/**
 * The benchmark's catalog: three models, each on a provider that points at the fake upstream.
 *
 * - `bench-chat`: an OpenAI-compatible provider, so the gateway calls `/v1/chat/completions`.
 * - `bench-responses`: kind `openai` with `openai_wire: responses` (calls `/v1/responses`).
 * - `bench-claude`: kind `anthropic` (calls `/v1/messages`).
 * @module
 */
import type { CatalogConfigInput } from "../catalog/schema.ts";

/** The variable the bench providers read their credential from, and its fixed value. */
export const BENCH_KEY_ENV = "BENCH_UPSTREAM_KEY";
export const BENCH_UPSTREAM_KEY = "sk-bench-upstream";

/** The catalog config for a fake upstream at `upstream` (its root, without `/v1`). */
export function benchCatalog(upstream: string): CatalogConfigInput {
  const provider = (kind: "openai" | "anthropic" | "openai_compatible") => ({
    kind,
    base_url: upstream,
    api_key_env: BENCH_KEY_ENV,
  });
  const language = ["openai", "anthropic"] as const;
  const common = {
    endpoint_types: [...language],
    context_window: 200_000,
    max_output_tokens: 32_000,
    pricing: { input: 1, cached_input: 0.1, output: 8 },
  };
  return {
    providers: {
      compat: provider("openai_compatible"),
      openai: provider("openai"),
      anthropic: provider("anthropic"),
    },
    models: [
      { id: "bench-chat", provider: "compat", upstream_id: "bench-chat-upstream", ...common },
      {
        id: "bench-responses",
        provider: "openai",
        upstream_id: "bench-responses-upstream",
        openai_wire: "responses",
        ...common,
      },
      {
        id: "bench-claude",
        provider: "anthropic",
        upstream_id: "bench-claude-upstream",
        ...common,
      },
    ],
    // The streams bench: `bench-paced-60x500` is a chat stream of 60 chunks, one every 500 ms.
    patterns: [{ pattern: "bench-paced-*", provider: "compat", endpoint_types: [...language] }],
    setup_defaults: {
      flagship: "bench-chat",
      previous: "bench-responses",
      previous_mini: "bench-claude",
    },
  };
}
