/**
 * The deployments a model or pattern is served by: the `provider` form is one deployment, the
 * `deployments` form one per entry. Each gets the stable id health and the admin view key on.
 * @module
 */
import type { ResolvedDeployment, ResolvedProvider } from "./resolved.ts";
import { MOCK_PROVIDER } from "./resolve_provider.ts";
import type { DeploymentEntry, ModelEntry, PatternEntry } from "./schema.ts";

/** Finds a configured provider by its key (validation has made sure it exists). */
export type ProviderByName = (name: string) => ResolvedProvider;

/** The variable to set when a provider needs a credential that is unset, else null. */
export function missingFor(provider: ResolvedProvider): string | null {
  if (provider.kind === "mock" || provider.apiKeyEnv === undefined) return null;
  return provider.apiKey === undefined ? provider.apiKeyEnv : null;
}

/** A model's deployments as written: the `provider` form is one deployment of weight 1. */
export function configuredDeployments(entry: ModelEntry): DeploymentEntry[] {
  if (entry.deployments !== undefined) return [...entry.deployments];
  if (entry.provider === undefined) {
    throw new Error(`model "${entry.id}" has no provider after validation`);
  }
  return [{ provider: entry.provider, upstream_id: entry.upstream_id, weight: 1 }];
}

/** Every deployment of a model, in config order. Ids are `<model id>@<provider>`, with
 * `#<index>` when the model lists that provider more than once. */
export function modelDeployments(
  entry: ModelEntry,
  providerByName: ProviderByName,
): ResolvedDeployment[] {
  const configured = configuredDeployments(entry);
  const uses = new Map<string, number>();
  for (const { provider } of configured) uses.set(provider, (uses.get(provider) ?? 0) + 1);
  return configured.map((deployment, index) => {
    const repeated = (uses.get(deployment.provider) ?? 0) > 1;
    return Object.freeze({
      id: `${entry.id}@${deployment.provider}${repeated ? `#${index}` : ""}`,
      provider: providerByName(deployment.provider),
      upstreamId: deployment.upstream_id ?? entry.upstream_id ?? entry.id,
      weight: deployment.weight,
    });
  });
}

/** The deployments routing may pick: those whose provider has its credential, when any has;
 * all of them when none has, so a request reports the missing credential. */
export function servingDeployments(
  all: readonly ResolvedDeployment[],
): readonly ResolvedDeployment[] {
  const usable = all.filter((deployment) => missingFor(deployment.provider) === null);
  return Object.freeze(usable.length > 0 ? usable : [...all]);
}

/** A pattern's one deployment, `<pattern>@<provider>`. Its upstream id is the pattern text
 * until a request binds the id it forwards (`forPatternId`). */
export function patternDeployment(
  pattern: PatternEntry,
  provider: ResolvedProvider,
): ResolvedDeployment {
  return Object.freeze({
    id: `${pattern.pattern}@${provider.name}`,
    provider,
    upstreamId: pattern.pattern,
    weight: 1,
  });
}

/** A pattern deployment bound to the id a request forwards unchanged. */
export function forPatternId(deployment: ResolvedDeployment, id: string): ResolvedDeployment {
  return Object.freeze({ ...deployment, upstreamId: id });
}

/** The id a model's demo deployment passes the mock: its first deployment's upstream id. */
export function demoUpstreamId(entry: ModelEntry): string {
  return configuredDeployments(entry)[0]?.upstream_id ?? entry.upstream_id ?? entry.id;
}

/** The one deployment of a model or pattern in demo mode: `<id or pattern>@mock`. */
export function demoDeployment(name: string, upstreamId: string): ResolvedDeployment {
  return Object.freeze({
    id: `${name}@${MOCK_PROVIDER.name}`,
    provider: MOCK_PROVIDER,
    upstreamId,
    weight: 1,
  });
}
