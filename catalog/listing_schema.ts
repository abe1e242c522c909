/**
 * Response and query schemas of `GET /v1/models` and `GET /v1/models/{id}`, in the OpenAI
 * shape (the default) and the Anthropic shape (requests carrying `anthropic-version`). Named with
 * `.openapi()` so the route table can reference them in the OpenAPI document.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { EndpointType, Modality } from "./schema.ts";

const EndpointTypeEnum = z.enum(EndpointType.options);
const ModalityEnum = z.enum(Modality.options);

/** Prices in US dollars; token prices per million tokens. Absent keys are not priced. */
export const ModelPricing = z.object({
  input: z.number().optional(),
  cached_input: z.number().optional(),
  cache_write: z.number().optional(),
  output: z.number().optional(),
  per_image: z.number().optional(),
}).openapi("ModelPricing", {
  description: "US dollars; token prices per million tokens.",
  example: { input: 2.5, cached_input: 0.25, output: 20 },
});

/** One model in the OpenAI shape, with the gateway's catalog fields. */
export const OpenAIModelObject = z.object({
  id: z.string().openapi({ example: "gpt-5.5-large" }),
  object: z.literal("model"),
  created: z.number().int().openapi({ description: "Unix seconds." }),
  owned_by: z.string().openapi({
    description: "openai, anthropic, the provider name for OpenAI-compatible providers, " +
      "gatehouse-mock in demo mode.",
    example: "openai",
  }),
  display_name: z.string(),
  supported_endpoint_types: z.array(EndpointTypeEnum),
  context_window: z.number().int().nullable(),
  max_output_tokens: z.number().int().nullable(),
  input_modalities: z.array(ModalityEnum),
  output_modalities: z.array(ModalityEnum),
  pricing: ModelPricing,
  aliases: z.array(z.string()).openapi({
    description: "Other ids that resolve to this model.",
    example: ["gpt-5.5"],
  }),
  special_purpose: z.boolean().openapi({
    description: "Audio or realtime previews and the like: not for general chat.",
  }),
}).openapi("OpenAIModel");

/** An id family forwarded unchanged to a provider; described, never listed as a model. */
export const ModelPattern = z.object({
  pattern: z.string().openapi({ example: "claude-*" }),
  owned_by: z.string(),
  supported_endpoint_types: z.array(EndpointTypeEnum),
  description: z.string().nullable(),
  pricing: ModelPricing,
}).openapi("ModelPattern");

/** The ids client set-up scripts write. */
export const SetupDefaultsObject = z.object({
  flagship: z.string(),
  previous: z.string(),
  previous_mini: z.string(),
}).openapi("SetupDefaults");

/** `GET /v1/models` in the OpenAI shape. */
export const OpenAIModelList = z.object({
  object: z.literal("list"),
  data: z.array(OpenAIModelObject),
  patterns: z.array(ModelPattern).openapi({
    description: "Id families accepted besides the listed ids; any matching id is forwarded " +
      "unchanged to the provider.",
  }),
  setup_defaults: SetupDefaultsObject,
}).openapi("OpenAIModelList");

/** One model in the Anthropic shape. */
export const AnthropicModelObject = z.object({
  type: z.literal("model"),
  id: z.string().openapi({ example: "claude-opus-5-5" }),
  display_name: z.string().openapi({ example: "Claude Opus 5.5" }),
  created_at: z.string().openapi({
    description: "RFC 3339 release time.",
    example: "2026-05-19T00:00:00Z",
  }),
}).openapi("AnthropicModel");

/** `GET /v1/models` in the Anthropic shape (newest first, cursor paging). */
export const AnthropicModelList = z.object({
  data: z.array(AnthropicModelObject),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
}).openapi("AnthropicModelList");

/** The path of `GET /v1/models/{id}`. */
export const ModelIdParams = z.object({
  id: z.string().min(1).openapi({
    param: { name: "id", in: "path" },
    description: "A model id or alias.",
    example: "gpt-5.5",
  }),
});

export type ModelPricing = z.infer<typeof ModelPricing>;
export type OpenAIModelObject = z.infer<typeof OpenAIModelObject>;
export type ModelPattern = z.infer<typeof ModelPattern>;
export type SetupDefaultsObject = z.infer<typeof SetupDefaultsObject>;
export type OpenAIModelList = z.infer<typeof OpenAIModelList>;
export type AnthropicModelObject = z.infer<typeof AnthropicModelObject>;
export type AnthropicModelList = z.infer<typeof AnthropicModelList>;
export type ModelIdParams = z.infer<typeof ModelIdParams>;
