/**
 * The rules a model's `fallbacks` keep: each names another model that exists and can stand in
 * for it on every route it answers, once; and a model that overflows to a fallback has a
 * context window to overflow and a fallback with a larger one.
 * @module
 */
import type { CatalogIssue } from "./catalog_error.ts";
import type { CatalogConfig, ModelEntry } from "./schema.ts";

/** Every model by its id and by each alias (a later duplicate wins; duplicates are reported by
 * the id rules). */
export function modelsByName(models: readonly ModelEntry[]): Map<string, ModelEntry> {
  const byName = new Map<string, ModelEntry>();
  for (const model of models) {
    byName.set(model.id, model);
    for (const alias of model.aliases) byName.set(alias, model);
  }
  return byName;
}

/** Every problem with the models' `fallbacks` and `fallback_on_context_overflow`. */
export function fallbackIssues(config: CatalogConfig): CatalogIssue[] {
  const byName = modelsByName(config.models);
  return config.models.flatMap((model, index) => [
    ...namedIssues(model, index, byName),
    ...overflowIssues(model, index, byName),
  ]);
}

function namedIssues(
  model: ModelEntry,
  index: number,
  byName: ReadonlyMap<string, ModelEntry>,
): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  // The first position naming each model, by the model's id: an alias and its id are one model.
  const seen = new Map<string, number>();
  model.fallbacks.forEach((name, at) => {
    const path = `models[${index}].fallbacks[${at}]`;
    const target = byName.get(name);
    if (target === undefined) {
      issues.push({ path, message: `"${name}" is not a model id or alias in models` });
      return;
    }
    if (target === model) {
      issues.push({ path, message: `"${name}" names this model itself` });
      return;
    }
    const earlier = seen.get(target.id);
    if (earlier !== undefined) {
      const again = model.fallbacks[earlier] === name
        ? `duplicate fallback "${name}"`
        : `"${name}" names "${target.id}" again`;
      issues.push({ path, message: `${again} (also fallbacks[${earlier}])` });
      return;
    }
    seen.set(target.id, at);
    const missing = model.endpoint_types.filter((type) => !target.endpoint_types.includes(type));
    if (missing.length > 0) {
      const types = missing.map((type) => `"${type}"`).join(", ");
      issues.push({
        path,
        message: `"${name}" does not answer on endpoint type${missing.length > 1 ? "s" : ""} ` +
          `${types}; a fallback must answer on every endpoint type of the model`,
      });
    }
  });
  return issues;
}

function overflowIssues(
  model: ModelEntry,
  index: number,
  byName: ReadonlyMap<string, ModelEntry>,
): CatalogIssue[] {
  if (!model.fallback_on_context_overflow) return [];
  const path = `models[${index}].fallback_on_context_overflow`;
  const window = model.context_window;
  if (window === undefined) {
    return [{ path, message: "needs the model's context_window (the size a request overflows)" }];
  }
  const known = model.fallbacks.flatMap((name) => {
    const target = byName.get(name);
    return target === undefined || target === model ? [] : [{ name, target }];
  });
  if (known.some(({ target }) => (target.context_window ?? 0) > window)) return [];
  const need = `needs a fallback whose context_window is larger than ${window}`;
  if (model.fallbacks.length === 0) return [{ path, message: `${need}; fallbacks is empty` }];
  if (known.length === 0) {
    return [{ path, message: `${need}; no fallback names another model in models` }];
  }
  const windows = known.map(({ name, target }) =>
    `"${name}": ${target.context_window ?? "no context_window"}`
  );
  return [{ path, message: `${need} (${windows.join(", ")})` }];
}
