/**
 * The catalog configuration schema: the single definition from which the loader validates a
 * config file and the published JSON Schema is generated. Cross-field rules (unique ids, known
 * providers, ...) live in `check_semantics.ts`; this file only says what each field may hold.
 * @module
 */
import { z } from "zod";
import { HEADER_NAME } from "../http1/header_syntax.ts";

/** The characters a public model id or alias may hold. */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/;
const MODEL_ID_RULE = "letters, digits and . _ : / - (not first)";

/** Which client routes a model answers on. */
export const EndpointType = z.enum(["openai", "anthropic", "image-generation"]).describe(
  "A client route family: `openai` (POST /v1/chat/completions and /v1/responses), " +
    "`anthropic` (POST /v1/messages), `image-generation` (POST /v1/images/generations).",
);
export type EndpointType = z.infer<typeof EndpointType>;

/** Input and output modalities. */
export const Modality = z.enum(["text", "image", "audio", "pdf"]);
export type Modality = z.infer<typeof Modality>;

const price = (what: string) => z.number().nonnegative().optional().describe(what);

/** Prices in US dollars. Token prices are per million tokens. */
export const Pricing = z.strictObject({
  input: price("US dollars per million input tokens."),
  cached_input: price("US dollars per million cached (cache-read) input tokens."),
  cache_write: price("US dollars per million tokens written to the prompt cache."),
  output: price("US dollars per million output tokens."),
  per_image: price("US dollars per generated image."),
}).describe("Prices used by the usage ledger, in US dollars.");
export type Pricing = z.infer<typeof Pricing>;

/** How a provider is reached. `mock` is the built-in deterministic provider. */
export const ProviderKind = z.enum(["openai", "anthropic", "openai_compatible", "mock"]).describe(
  "`openai` and `anthropic` are the vendors' own APIs; `openai_compatible` is any other server " +
    "speaking the OpenAI wire (needs base_url); `mock` is the built-in deterministic provider.",
);
export type ProviderKind = z.infer<typeof ProviderKind>;

/** A provider: where requests go and which credential they carry. */
export const ProviderConfig = z.strictObject({
  kind: ProviderKind,
  /** Upstream root, without `/v1`. Overridden for the built-in providers by
   * `GATEHOUSE_OPENAI_URL` / `GATEHOUSE_ANTHROPIC_URL`. */
  base_url: z.url({ protocol: /^https?$/ }).optional().describe(
    "Upstream root without /v1 (a trailing /v1 is stripped). Defaults to the vendor's API for " +
      "`openai` and `anthropic`; required for `openai_compatible`. GATEHOUSE_OPENAI_URL and " +
      "GATEHOUSE_ANTHROPIC_URL override it for every provider of kind openai / anthropic.",
  ),
  /** Name of the environment variable that holds the upstream credential. */
  api_key_env: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, "an upper-case environment variable name")
    .optional().describe(
      "Name of the environment variable holding the upstream credential. Without it the " +
        "provider is called with no credential. While the variable is unset, no request goes to " +
        "this provider, and a model none of whose providers has its credential is not listed.",
    ),
  /** Extra headers sent upstream with every request. */
  headers: z.record(
    z.string().regex(HEADER_NAME, "an HTTP header name"),
    z.string().regex(/^[^\r\n\0]*$/, "a header value on one line"),
  ).optional().describe(
    "Extra headers sent upstream with every request.",
  ),
});
export type ProviderConfig = z.infer<typeof ProviderConfig>;

/** One way of serving a model: a provider, the id it is called with there, a traffic share. */
export const DeploymentEntry = z.strictObject({
  provider: z.string().min(1).describe("A key of `providers`."),
  upstream_id: z.string().min(1).optional().describe(
    "The id sent upstream on this deployment; defaults to the model's upstream_id, else its id.",
  ),
  weight: z.number().int().positive().default(1).describe(
    "Relative share of traffic among the model's healthy deployments.",
  ),
}).describe("One provider serving the model.");
export type DeploymentEntry = z.infer<typeof DeploymentEntry>;

/** One catalog model. Exactly one of `provider` and `deployments` is given; `check_semantics.ts`
 * enforces it, so the JSON Schema keeps both optional and the error names the model. */
export const ModelEntry = z.strictObject({
  id: z.string().min(1).regex(MODEL_ID, MODEL_ID_RULE).describe(
    "The public id clients send as `model`.",
  ),
  display_name: z.string().min(1).optional().describe("Human-readable name; defaults to id."),
  provider: z.string().min(1).optional().describe(
    "A key of `providers`: the one provider serving this model. Give either this or " +
      "`deployments`.",
  ),
  deployments: z.array(DeploymentEntry).min(1).optional().describe(
    "Several providers serving this model, instead of `provider`: each request goes to one of " +
      "the healthy ones (by weight), and a failed attempt is retried on another.",
  ),
  /** The id sent upstream; defaults to `id`. */
  upstream_id: z.string().min(1).optional().describe(
    "The id sent upstream; defaults to id. A deployment's own upstream_id overrides it.",
  ),
  fallbacks: z.array(z.string().min(1).regex(MODEL_ID, MODEL_ID_RULE)).default([]).describe(
    "Catalog ids or aliases tried in order when every attempt on this model's own deployments " +
      "failed. Each must answer on every endpoint type of this model.",
  ),
  fallback_on_context_overflow: z.boolean().default(false).describe(
    "Send a request too large for this model's context_window to the first fallback whose " +
      "context_window is larger. Needs context_window here and such a fallback.",
  ),
  endpoint_types: z.array(EndpointType).min(1).describe("The client routes this model answers."),
  /** The OpenAI wire used upstream for language models: `chat` or `responses`. */
  openai_wire: z.enum(["chat", "responses"]).default("chat").describe(
    "For providers speaking the OpenAI wire: call upstream /v1/chat/completions or /v1/responses.",
  ),
  context_window: z.number().int().positive().optional().describe("Context window in tokens."),
  max_output_tokens: z.number().int().positive().optional().describe(
    "Largest number of output tokens per response.",
  ),
  input_modalities: z.array(Modality).min(1).default(["text"]),
  output_modalities: z.array(Modality).min(1).default(["text"]),
  pricing: Pricing.default({}),
  flags: z.strictObject({
    /** Special-purpose (audio or realtime previews): never a chat default. */
    special_purpose: z.boolean().default(false).describe(
      "Audio or realtime previews and the like: listed, but never a chat default.",
    ),
    /** Served but not listed. */
    hidden: z.boolean().default(false).describe("Served, but not listed by GET /v1/models."),
  }).default({ special_purpose: false, hidden: false }),
  aliases: z.array(z.string().min(1).regex(MODEL_ID, MODEL_ID_RULE)).default([]).describe(
    "Other ids that resolve to this model, e.g. a family's short id for its default tier.",
  ),
  /** Unix seconds shown as `created`. */
  created: z.number().int().nonnegative().default(0).describe(
    "Unix seconds shown as `created` (OpenAI) and `created_at` (Anthropic).",
  ),
});
export type ModelEntry = z.infer<typeof ModelEntry>;

/** A family of ids forwarded unchanged to one provider (`claude-*`). */
export const PatternEntry = z.strictObject({
  /** A glob with one trailing `*`, e.g. `claude-*`. */
  pattern: z.string().regex(/^[A-Za-z0-9._:/-]+\*$/, "a prefix followed by one trailing *")
    .describe(
      "A prefix followed by one trailing `*`, e.g. `claude-*`. A matching id that is not a " +
        "catalog id or alias is forwarded unchanged; the longest matching prefix wins.",
    ),
  provider: z.string().min(1).describe("A key of `providers`."),
  endpoint_types: z.array(EndpointType).min(1),
  openai_wire: z.enum(["chat", "responses"]).default("chat"),
  description: z.string().optional(),
  /** Prices applied to matched ids for the usage ledger. */
  pricing: Pricing.default({}),
});
export type PatternEntry = z.infer<typeof PatternEntry>;

/** The ids client set-up scripts write. */
export const SetupDefaults = z.strictObject({
  flagship: z.string().describe("The model set-up scripts configure as the main model."),
  previous: z.string().describe("The previous generation, offered as a fallback."),
  previous_mini: z.string().describe("A small, fast model for background tasks."),
});
export type SetupDefaults = z.infer<typeof SetupDefaults>;

/** The whole catalog file. */
export const CatalogConfig = z.strictObject({
  $schema: z.string().optional().describe("Path or URL of catalog.schema.json, for editors."),
  providers: z.record(
    z.string().regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and -"),
    ProviderConfig,
  ).describe("Upstream providers by name."),
  models: z.array(ModelEntry).describe("The models clients can name."),
  patterns: z.array(PatternEntry).default([]).describe(
    "Id families forwarded unchanged to a provider.",
  ),
  setup_defaults: SetupDefaults,
}).describe("The gatehouse model catalog (GATEHOUSE_CONFIG). JSON with // and /* */ comments.");
export type CatalogConfig = z.infer<typeof CatalogConfig>;
export type CatalogConfigInput = z.input<typeof CatalogConfig>;
