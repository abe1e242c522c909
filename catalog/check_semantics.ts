/**
 * The rules a catalog must keep that a per-field schema cannot express: unique ids and aliases,
 * providers that exist, set-up defaults that name chat models, limits that fit together,
 * fallbacks that can stand in (`check_fallbacks.ts`).
 * @module
 */
import { type CatalogIssue, formatPath } from "./catalog_error.ts";
import { fallbackIssues, modelsByName } from "./check_fallbacks.ts";
import type { CatalogConfig, ModelEntry } from "./schema.ts";

/** Every cross-field problem in a config that already passed the zod schema. */
export function semanticIssues(config: CatalogConfig): CatalogIssue[] {
  return [
    ...providerIssues(config),
    ...idIssues(config.models),
    ...modelIssues(config),
    ...fallbackIssues(config),
    ...patternIssues(config),
    ...setupDefaultIssues(config),
  ];
}

function providerIssues(config: CatalogConfig): CatalogIssue[] {
  return Object.entries(config.providers).flatMap(([name, provider]) =>
    provider.kind === "openai_compatible" && provider.base_url === undefined
      ? [{
        path: formatPath(["providers", name, "base_url"]),
        message: "required for kind openai_compatible (the upstream root, without /v1)",
      }]
      : []
  );
}

/** Ids and aliases share one namespace: every name must point at exactly one model. */
function idIssues(models: readonly ModelEntry[]): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  const ids = new Map<string, number>();
  models.forEach((model, index) => {
    const first = ids.get(model.id);
    if (first === undefined) ids.set(model.id, index);
    else {
      issues.push({
        path: `models[${index}].id`,
        message: `duplicate id "${model.id}" (also models[${first}].id)`,
      });
    }
  });
  const aliases = new Map<string, string>();
  models.forEach((model, index) => {
    model.aliases.forEach((alias, aliasIndex) => {
      const path = `models[${index}].aliases[${aliasIndex}]`;
      const owner = ids.get(alias);
      const earlier = aliases.get(alias);
      if (owner === index) {
        issues.push({ path, message: `alias "${alias}" repeats the model's own id` });
      } else if (owner !== undefined) {
        issues.push({
          path,
          message: `alias "${alias}" collides with the id of models[${owner}]; ` +
            "an id cannot also be an alias of another model",
        });
      } else if (earlier !== undefined) {
        issues.push({ path, message: `duplicate alias "${alias}" (also ${earlier})` });
      } else {
        aliases.set(alias, path);
      }
    });
  });
  return issues;
}

function modelIssues(config: CatalogConfig): CatalogIssue[] {
  return config.models.flatMap((model, index) => {
    const issues = servingIssues(config, model, index);
    if (
      model.context_window !== undefined && model.max_output_tokens !== undefined &&
      model.max_output_tokens > model.context_window
    ) {
      issues.push({
        path: `models[${index}].max_output_tokens`,
        message: `${model.max_output_tokens} exceeds context_window ${model.context_window}`,
      });
    }
    if (model.endpoint_types.includes("image-generation")) {
      if (!model.output_modalities.includes("image")) {
        issues.push({
          path: `models[${index}].output_modalities`,
          message: 'endpoint type "image-generation" needs "image" among the output modalities',
        });
      }
    }
    return issues;
  });
}

/** A model names its provider one way: `provider`, or `deployments`, each a defined provider. */
function servingIssues(config: CatalogConfig, model: ModelEntry, index: number): CatalogIssue[] {
  const path = `models[${index}]`;
  if (model.provider !== undefined && model.deployments !== undefined) {
    return [{ path, message: 'give either "provider" or "deployments", not both' }];
  }
  if (model.provider !== undefined) {
    const unknown = unknownProvider(config, model.provider);
    return unknown === null ? [] : [{ path: `${path}.provider`, message: unknown }];
  }
  if (model.deployments === undefined) {
    return [{ path, message: 'needs "provider" or "deployments" (who serves the model)' }];
  }
  return model.deployments.flatMap((deployment, at) => {
    const unknown = unknownProvider(config, deployment.provider);
    return unknown === null
      ? []
      : [{ path: `${path}.deployments[${at}].provider`, message: unknown }];
  });
}

function patternIssues(config: CatalogConfig): CatalogIssue[] {
  const seen = new Map<string, number>();
  return config.patterns.flatMap((pattern, index) => {
    const issues: CatalogIssue[] = [];
    const first = seen.get(pattern.pattern);
    if (first !== undefined) {
      issues.push({
        path: `patterns[${index}].pattern`,
        message: `duplicate pattern "${pattern.pattern}" (also patterns[${first}].pattern)`,
      });
    } else seen.set(pattern.pattern, index);
    const unknown = unknownProvider(config, pattern.provider);
    if (unknown !== null) issues.push({ path: `patterns[${index}].provider`, message: unknown });
    return issues;
  });
}

/** Set-up scripts write these ids into chat clients: they must name chat models. */
function setupDefaultIssues(config: CatalogConfig): CatalogIssue[] {
  const byName = modelsByName(config.models);
  return Object.entries(config.setup_defaults).flatMap(([slot, id]) => {
    const path = `setup_defaults.${slot}`;
    const model = byName.get(id);
    if (model === undefined) {
      return [{ path, message: `"${id}" is not a model id or alias in models` }];
    }
    if (model.flags.special_purpose) {
      return [{ path, message: `"${id}" is special-purpose and cannot be a chat default` }];
    }
    if (!model.output_modalities.includes("text")) {
      return [{ path, message: `"${id}" does not output text and cannot be a chat default` }];
    }
    return [];
  });
}

function unknownProvider(config: CatalogConfig, name: string): string | null {
  if (Object.hasOwn(config.providers, name)) return null;
  const defined = Object.keys(config.providers);
  return `provider "${name}" is not defined in providers (defined: ${
    defined.length === 0 ? "none" : defined.join(", ")
  })`;
}
