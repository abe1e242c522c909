/**
 * The built-in catalog, used when `GATEHOUSE_CONFIG` names no file. It goes through the same
 * validation as a file. Prices are US dollars per million tokens (per image for images).
 * @module
 */
import type { CatalogConfigInput, ModelEntry } from "./schema.ts";

type ModelInput = CatalogConfigInput["models"][number];

/** Every language model answers on both the OpenAI and the Anthropic routes. */
const LANGUAGE: ModelEntry["endpoint_types"] = ["openai", "anthropic"];
const TEXT_AND_IMAGE: ModelEntry["input_modalities"] = ["text", "image"];

const gpt55Tiers: ModelInput[] = [
  {
    id: "gpt-5.5-large",
    display_name: "GPT-5.5 Large",
    provider: "openai",
    endpoint_types: LANGUAGE,
    openai_wire: "responses",
    context_window: 400_000,
    max_output_tokens: 128_000,
    input_modalities: TEXT_AND_IMAGE,
    pricing: { input: 2.5, cached_input: 0.25, output: 20 },
    aliases: ["gpt-5.5"],
    created: 1_774_396_800,
  },
  {
    id: "gpt-5.5-medium",
    display_name: "GPT-5.5 Medium",
    provider: "openai",
    endpoint_types: LANGUAGE,
    openai_wire: "responses",
    context_window: 400_000,
    max_output_tokens: 128_000,
    input_modalities: TEXT_AND_IMAGE,
    pricing: { input: 1.25, cached_input: 0.125, output: 10 },
    created: 1_774_396_800,
  },
  {
    id: "gpt-5.5-small",
    display_name: "GPT-5.5 Small",
    provider: "openai",
    endpoint_types: LANGUAGE,
    openai_wire: "responses",
    context_window: 400_000,
    max_output_tokens: 128_000,
    input_modalities: TEXT_AND_IMAGE,
    pricing: { input: 0.3, cached_input: 0.03, output: 2.4 },
    created: 1_774_396_800,
  },
];

const openaiModels: ModelInput[] = [
  ...gpt55Tiers,
  {
    id: "gpt-6",
    display_name: "GPT-6",
    provider: "openai",
    endpoint_types: LANGUAGE,
    openai_wire: "responses",
    context_window: 1_050_000,
    max_output_tokens: 128_000,
    input_modalities: TEXT_AND_IMAGE,
    output_modalities: ["text"],
    pricing: { input: 5, cached_input: 0.5, output: 40 },
    created: 1_788_220_800,
  },
  {
    id: "gpt-5",
    display_name: "GPT-5",
    provider: "openai",
    endpoint_types: LANGUAGE,
    openai_wire: "chat",
    context_window: 400_000,
    max_output_tokens: 128_000,
    input_modalities: TEXT_AND_IMAGE,
    pricing: { input: 1.25, cached_input: 0.125, output: 10 },
    created: 1_754_524_800,
  },
  {
    id: "gpt-5-mini",
    display_name: "GPT-5 mini",
    provider: "openai",
    endpoint_types: LANGUAGE,
    openai_wire: "chat",
    context_window: 400_000,
    max_output_tokens: 128_000,
    input_modalities: TEXT_AND_IMAGE,
    pricing: { input: 0.25, cached_input: 0.025, output: 2 },
    created: 1_754_524_800,
  },
  // Audio and realtime previews only make sense on the OpenAI wire: no Anthropic route.
  {
    id: "gpt-4o-audio-preview",
    display_name: "GPT-4o Audio (preview)",
    provider: "openai",
    endpoint_types: ["openai"],
    openai_wire: "chat",
    context_window: 128_000,
    max_output_tokens: 16_384,
    input_modalities: ["text", "audio"],
    output_modalities: ["text", "audio"],
    pricing: { input: 2.5, output: 10 },
    flags: { special_purpose: true },
    created: 1_727_654_400,
  },
  {
    id: "gpt-4o-realtime-preview",
    display_name: "GPT-4o Realtime (preview)",
    provider: "openai",
    endpoint_types: ["openai"],
    openai_wire: "chat",
    context_window: 128_000,
    max_output_tokens: 4_096,
    input_modalities: ["text", "audio"],
    output_modalities: ["text", "audio"],
    pricing: { input: 5, cached_input: 2.5, output: 20 },
    flags: { special_purpose: true },
    created: 1_727_654_400,
  },
  {
    id: "gpt-image-1",
    display_name: "GPT Image 1",
    provider: "openai",
    endpoint_types: ["image-generation", "openai"],
    input_modalities: TEXT_AND_IMAGE,
    output_modalities: ["image"],
    pricing: { input: 5, cached_input: 1.25, per_image: 0.042 },
    created: 1_745_366_400,
  },
];

const anthropicModels: ModelInput[] = [
  {
    id: "claude-opus-5-5",
    display_name: "Claude Opus 5.5",
    provider: "anthropic",
    endpoint_types: ["anthropic", "openai"],
    context_window: 1_000_000,
    max_output_tokens: 128_000,
    input_modalities: ["text", "image", "pdf"],
    pricing: { input: 5, cached_input: 0.5, cache_write: 6.25, output: 25 },
    aliases: ["claude-opus"],
    created: 1_779_148_800,
  },
  {
    id: "claude-sonnet-5",
    display_name: "Claude Sonnet 5",
    provider: "anthropic",
    endpoint_types: ["anthropic", "openai"],
    context_window: 1_000_000,
    max_output_tokens: 64_000,
    input_modalities: ["text", "image", "pdf"],
    pricing: { input: 3, cached_input: 0.3, cache_write: 3.75, output: 15 },
    aliases: ["claude-sonnet"],
    created: 1_771_891_200,
  },
  {
    id: "claude-haiku-4-5",
    display_name: "Claude Haiku 4.5",
    provider: "anthropic",
    upstream_id: "claude-haiku-4-5-20251001",
    endpoint_types: ["anthropic", "openai"],
    context_window: 200_000,
    max_output_tokens: 64_000,
    input_modalities: ["text", "image", "pdf"],
    pricing: { input: 1, cached_input: 0.1, cache_write: 1.25, output: 5 },
    aliases: ["claude-haiku"],
    created: 1_760_572_800,
  },
];

/** The built-in default catalog: OpenAI and Anthropic models behind their official APIs. */
export const defaultCatalog: CatalogConfigInput = {
  providers: {
    openai: { kind: "openai", base_url: "https://api.openai.com", api_key_env: "OPENAI_API_KEY" },
    anthropic: {
      kind: "anthropic",
      base_url: "https://api.anthropic.com",
      api_key_env: "ANTHROPIC_API_KEY",
    },
  },
  models: [...openaiModels, ...anthropicModels],
  patterns: [
    {
      pattern: "claude-*",
      provider: "anthropic",
      endpoint_types: ["anthropic", "openai"],
      description: "Any other Claude model id, forwarded unchanged to Anthropic (for example " +
        "the ids Claude Code sends in native mode).",
    },
  ],
  setup_defaults: {
    flagship: "gpt-5.5-large",
    previous: "gpt-5",
    previous_mini: "gpt-5-mini",
  },
};

/** The source name used in error messages about the built-in catalog. */
export const DEFAULT_CATALOG_SOURCE = "built-in default catalog";
