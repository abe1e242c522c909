/**
 * Which OpenAI models take reasoning parameters. gatehouse asks every reasoning model for
 * `reasoning.encrypted_content`, but OpenAI answers 400 to that `include`, to `reasoning`
 * settings and to replayed reasoning items when the model does not reason ("Encrypted content
 * is not supported with this model"): GPT-4o, GPT-4.1, GPT-3.5 and the `*-chat` models. Those
 * families are recognised here by id; every other id (o-series, GPT-5, Codex models, other
 * vendors' Responses servers) is treated as reasoning.
 * @module
 */

const NON_REASONING = [
  /^gpt-4/,
  /^gpt-3\.5/,
  /^chatgpt-/,
  /-chat(-latest)?$/,
  /^gpt-5(\.\d+)?-chat/,
];

/** True unless `model` (an upstream id, optionally `vendor/`-prefixed) is a known non-reasoning
 * OpenAI model. */
export function acceptsReasoning(model: string): boolean {
  const id = model.slice(model.lastIndexOf("/") + 1).toLowerCase();
  return !NON_REASONING.some((pattern) => pattern.test(id));
}
