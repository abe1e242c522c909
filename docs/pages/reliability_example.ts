/**
 * The reliability page's worked example: a catalog excerpt with a model on two deployments and
 * fallbacks, the catalog the gateway builds from it (deployment ids, upstream ids, weights), and
 * what the admin API shows after a failover — rendered by the code that serves them
 * (`Catalog`, `DeploymentHealth`, the admin handlers' wire forms, `costOf`).
 * @module
 */
import { Catalog } from "../../catalog/catalog.ts";
import { defaultCatalog } from "../../catalog/default_catalog.ts";
import { parseCatalogConfig } from "../../catalog/parse_config.ts";
import type { CatalogConfigInput } from "../../catalog/schema.ts";
import { emptyUsage } from "../../core/response.ts";
import { readGatewayConfig } from "../../gateway/config.ts";
import { costOf } from "../../gateway/cost.ts";
import { DeploymentHealth } from "../../gateway/health.ts";
import { deploymentWire } from "../../routes/handlers/admin_deployments.ts";
import { requestWire } from "../../routes/handlers/admin_requests.ts";
import type { AttemptRecord, RequestRow } from "../../store/store.ts";
import { EXAMPLE_NOW } from "./keys_refusals.ts";

type ModelInput = CatalogConfigInput["models"][number];

/** The settings' defaults, as the gateway reads them with no variable set. */
export const DEFAULTS = readGatewayConfig(() => undefined);

/** The model the example spreads over two deployments. */
export const SPREAD_MODEL = "gpt-5";
/** Its fallback, on another vendor. */
export const FALLBACK_MODEL = "claude-sonnet-5";
/** The model that overflows to the fallback's larger context window. */
export const OVERFLOW_MODEL = "claude-haiku-4-5";

/** A default-catalog model's limits and prices, so the example quotes the real ones. */
function facts(id: string): Pick<ModelInput, "endpoint_types" | "context_window" | "pricing"> {
  const model = defaultCatalog.models.find((m) => m.id === id);
  if (model === undefined) throw new Error(`the default catalog has no "${id}"`);
  const { endpoint_types, context_window, pricing } = model;
  return { endpoint_types, context_window, pricing };
}

/** The example's `providers`: two OpenAI projects (each with its own rate limits) and Anthropic. */
export const EXAMPLE_PROVIDERS: CatalogConfigInput["providers"] = {
  "openai-a": { kind: "openai", api_key_env: "OPENAI_API_KEY_A" },
  "openai-b": { kind: "openai", api_key_env: "OPENAI_API_KEY_B" },
  anthropic: { kind: "anthropic", api_key_env: "ANTHROPIC_API_KEY" },
};

/** The example's `models`. */
export const EXAMPLE_MODELS: ModelInput[] = [
  {
    id: SPREAD_MODEL,
    deployments: [
      { provider: "openai-a", weight: 3 },
      { provider: "openai-b", upstream_id: "gpt-5-2025-08-07" },
    ],
    ...facts(SPREAD_MODEL),
    fallbacks: [FALLBACK_MODEL],
  },
  {
    id: OVERFLOW_MODEL,
    provider: "anthropic",
    upstream_id: "claude-haiku-4-5-20251001",
    ...facts(OVERFLOW_MODEL),
    fallbacks: [FALLBACK_MODEL],
    fallback_on_context_overflow: true,
  },
  { id: FALLBACK_MODEL, provider: "anthropic", ...facts(FALLBACK_MODEL) },
];

/** JSON with objects and arrays of plain values on one line, the rest indented. */
export function compactJson(value: unknown, indent = ""): string {
  const plain = (v: unknown) => v === null || typeof v !== "object";
  if (plain(value)) return JSON.stringify(value);
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((v) => [null, v] as const)
    : Object.entries(value as Record<string, unknown>);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  const item = ([key, v]: readonly [string | null, unknown], nested: string) =>
    `${key === null ? "" : `${JSON.stringify(key)}: `}${compactJson(v, nested)}`;
  if (entries.every(([, v]) => plain(v))) {
    return `${open}${entries.map((e) => item(e, inner)).join(", ")}${close}`;
  }
  return `${open}\n${entries.map((e) => inner + item(e, inner)).join(",\n")}\n${indent}${close}`;
}

/** The excerpt as an operator writes it. */
export function exampleJson(): string {
  return compactJson({ providers: EXAMPLE_PROVIDERS, models: EXAMPLE_MODELS });
}

const CREDENTIALS = new Set(Object.values(EXAMPLE_PROVIDERS).map((p) => p.api_key_env));
let built: Catalog | null = null;

/** The catalog the gateway builds from the excerpt, every provider's credential set. */
export function exampleCatalog(): Catalog {
  built ??= new Catalog(
    parseCatalogConfig({
      providers: EXAMPLE_PROVIDERS,
      models: EXAMPLE_MODELS,
      setup_defaults: {
        flagship: SPREAD_MODEL,
        previous: FALLBACK_MODEL,
        previous_mini: OVERFLOW_MODEL,
      },
    }, "example"),
    (name) => CREDENTIALS.has(name) ? "set" : undefined,
  );
  return built;
}

const deploymentOf = (model: string, provider: string) =>
  exampleCatalog().deployments().find((d) =>
    d.model === model && d.deployment.provider.name === provider
  )!;

/** The id of the spread model's deployment on `provider`. */
export const exampleDeploymentId = (provider: string): string =>
  deploymentOf(SPREAD_MODEL, provider).deployment.id;

/** The last error the example's failing deployment reports. */
const FAILURE = 'retryable_status: Provider "openai-b" returned HTTP 503: Service unavailable';

/** `GET /admin/v1/deployments` for the spread model after `openai-b` failed as often in a row as
 * cools a deployment down, while `openai-a` serves two requests. */
export function exampleDeploymentsJson(): string {
  const health = new DeploymentHealth({
    cooldownMs: DEFAULTS.cooldownMs,
    failures: DEFAULTS.cooldownFailures,
    now: () => EXAMPLE_NOW,
  });
  for (let i = 0; i < DEFAULTS.cooldownFailures; i++) {
    const ticket = health.begin(exampleDeploymentId("openai-b"));
    ticket.failed(FAILURE);
    ticket.done();
  }
  for (let i = 0; i < 2; i++) health.begin(exampleDeploymentId("openai-a")).succeeded();
  const data = exampleCatalog().deployments().filter((d) => d.model === SPREAD_MODEL)
    .map((d) => deploymentWire(d, health.view(d.deployment.id)));
  return compactJson({ object: "list", data });
}

/** The example request's upstream calls: both deployments fail, one is retried, the fallback
 * answers. */
export function exampleAttempts(): AttemptRecord[] {
  const call = (model: string, provider: string, status: number, ms: number): AttemptRecord => ({
    deployment: deploymentOf(model, provider).deployment.id,
    provider,
    model,
    status,
    result: status === 200 ? "ok" : "retryable_status",
    ms,
  });
  return [
    call(SPREAD_MODEL, "openai-b", 503, 212),
    call(SPREAD_MODEL, "openai-a", 503, 187),
    call(SPREAD_MODEL, "openai-b", 503, 240),
    call(FALLBACK_MODEL, "anthropic", 200, 930),
  ];
}

/** The example request's tokens. */
export const EXAMPLE_USAGE = { ...emptyUsage(), inputTokens: 12_000, outputTokens: 800 };

/** Its cost: the fallback's prices, since the fallback answered. */
export function exampleCost(): number {
  return costOf(exampleCatalog().resolve(FALLBACK_MODEL)!.pricing, EXAMPLE_USAGE);
}

/** `GET /admin/v1/requests?request_id=…` for the example request. */
export function exampleRequestJson(): string {
  const attempts = exampleAttempts();
  const row: RequestRow = {
    requestId: "req_7Hq2mX9aLk4PzR1c",
    keyId: "key_3f9a",
    model: SPREAD_MODEL,
    servedModel: FALLBACK_MODEL,
    upstream: attempts.at(-1)!.provider,
    route: "/v1/messages",
    status: 200,
    outcome: "ok",
    attempts: attempts.length,
    attemptLog: attempts,
    inputTokens: EXAMPLE_USAGE.inputTokens,
    outputTokens: EXAMPLE_USAGE.outputTokens,
    cost: exampleCost(),
    latencyMs: 5_140,
    firstByteMs: 1_702,
    stream: true,
    time: EXAMPLE_NOW,
  };
  return compactJson({ object: "list", data: [requestWire(row)] });
}
