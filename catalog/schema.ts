/**
 * The catalog configuration schema: the single definition from which the loader validates a
 * config file and the published JSON Schema is generated.
 * @module
 */
import { z } from "zod";

/** Which client routes a model answers on. */
export const EndpointType = z.enum(["openai", "anthropic", "image-generation"]);
export type EndpointType = z.infer<typeof EndpointType>;

/** Input and output modalities. */
export const Modality = z.enum(["text", "image", "audio", "pdf"]);
export type Modality = z.infer<typeof Modality>;

/** Prices in US dollars. Token prices are per million tokens. */
export const Pricing = z.strictObject({
  input: z.number().nonnegative().optional(),
  cached_input: z.number().nonnegative().optional(),
  cache_write: z.number().nonnegative().optional(),
  output: z.number().nonnegative().optional(),
  per_image: z.number().nonnegative().optional(),
});
export type Pricing = z.infer<typeof Pricing>;

/** How a provider is reached. `mock` is the built-in deterministic provider. */
export const ProviderKind = z.enum(["openai", "anthropic", "openai_compatible", "mock"]);
export type ProviderKind = z.infer<typeof ProviderKind>;

/** A provider: where requests go and which credential they carry. */
export const ProviderConfig = z.strictObject({
  kind: ProviderKind,
  /** Upstream root, without `/v1`. Overridden for the built-in providers by
   * `GATEHOUSE_OPENAI_URL` / `GATEHOUSE_ANTHROPIC_URL`. */
  base_url: z.url().optional(),
  /** Name of the environment variable that holds the upstream credential. */
  api_key_env: z.string().regex(/^[A-Z_][A-Z0-9_]*$/).optional(),
  /** Extra headers sent upstream with every request. */
  headers: z.record(z.string(), z.string()).optional(),
});
export type ProviderConfig = z.infer<typeof ProviderConfig>;

/** One catalog model. */
export const ModelEntry = z.strictObject({
  id: z.string().min(1).regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]*$/),
  display_name: z.string().optional(),
  provider: z.string().min(1),
  /** The id sent upstream; defaults to `id`. */
  upstream_id: z.string().min(1).optional(),
  endpoint_types: z.array(EndpointType).min(1),
  /** The OpenAI wire used upstream for language models: `chat` or `responses`. */
  openai_wire: z.enum(["chat", "responses"]).default("chat"),
  context_window: z.number().int().positive().optional(),
  max_output_tokens: z.number().int().positive().optional(),
  input_modalities: z.array(Modality).default(["text"]),
  output_modalities: z.array(Modality).default(["text"]),
  pricing: Pricing.default({}),
  flags: z.strictObject({
    /** Special-purpose (audio or realtime previews): never a chat default. */
    special_purpose: z.boolean().default(false),
    /** Served but not listed. */
    hidden: z.boolean().default(false),
  }).default({ special_purpose: false, hidden: false }),
  aliases: z.array(z.string().min(1)).default([]),
  /** Unix seconds shown as `created`. */
  created: z.number().int().nonnegative().default(0),
});
export type ModelEntry = z.infer<typeof ModelEntry>;

/** A family of ids forwarded unchanged to one provider (`claude-*`). */
export const PatternEntry = z.strictObject({
  /** A glob with one trailing `*`, e.g. `claude-*`. */
  pattern: z.string().regex(/^[A-Za-z0-9._:/-]+\*$/, "a prefix followed by one trailing *"),
  provider: z.string().min(1),
  endpoint_types: z.array(EndpointType).min(1),
  openai_wire: z.enum(["chat", "responses"]).default("chat"),
  description: z.string().optional(),
  /** Prices applied to matched ids for the usage ledger. */
  pricing: Pricing.default({}),
});
export type PatternEntry = z.infer<typeof PatternEntry>;

/** The ids client set-up scripts write. */
export const SetupDefaults = z.strictObject({
  flagship: z.string(),
  previous: z.string(),
  previous_mini: z.string(),
});
export type SetupDefaults = z.infer<typeof SetupDefaults>;

/** The whole catalog file. */
export const CatalogConfig = z.strictObject({
  $schema: z.string().optional(),
  providers: z.record(z.string(), ProviderConfig),
  models: z.array(ModelEntry),
  patterns: z.array(PatternEntry).default([]),
  setup_defaults: SetupDefaults,
});
export type CatalogConfig = z.infer<typeof CatalogConfig>;
export type CatalogConfigInput = z.input<typeof CatalogConfig>;
