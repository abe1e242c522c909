/**
 * Makes a configured provider concrete: its base URL (default, config, or the gateway's own
 * override variables) and its credential. The vendor SDK variables `OPENAI_BASE_URL` and
 * `ANTHROPIC_BASE_URL` are deliberately never read: clients set them to point at the gateway,
 * and honouring them upstream would make the gateway call itself.
 * @module
 */
import { CatalogError } from "./catalog_error.ts";
import type { EnvReader, ResolvedProvider } from "./resolved.ts";
import type { ProviderConfig, ProviderKind } from "./schema.ts";

/** The vendor roots used when a provider of that kind gives no base_url. */
export const DEFAULT_BASE_URLS: Readonly<Partial<Record<ProviderKind, string>>> = {
  openai: "https://api.openai.com",
  anthropic: "https://api.anthropic.com",
};

/** The variables that override the base URL of every provider of a kind. */
export const BASE_URL_OVERRIDES: Readonly<Partial<Record<ProviderKind, string>>> = {
  openai: "GATEHOUSE_OPENAI_URL",
  anthropic: "GATEHOUSE_ANTHROPIC_URL",
};

/** The provider every model is served by in demo mode. */
export const MOCK_PROVIDER: ResolvedProvider = guardSecret({
  name: "mock",
  kind: "mock",
  baseUrl: "",
  apiKey: undefined,
  apiKeyEnv: undefined,
  headers: {},
});

/** Drops trailing slashes and one trailing `/v1`: `http://h:8080/v1/` → `http://h:8080`. */
export function normalizeBaseUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return trimmed.endsWith("/v1") ? trimmed.slice(0, -3).replace(/\/+$/, "") : trimmed;
}

/** Resolves one configured provider. Throws `CatalogError` for a malformed override URL. */
export function resolveProvider(
  name: string,
  config: ProviderConfig,
  env: EnvReader,
): ResolvedProvider {
  // Trimmed: a credential read from a file often ends in a line break, which is no part of it
  // and must never reach a header line.
  const apiKey = config.api_key_env === undefined
    ? undefined
    : nonEmpty(env(config.api_key_env))?.trim();
  return guardSecret({
    name,
    kind: config.kind,
    baseUrl: baseUrlFor(config, env),
    apiKey,
    apiKeyEnv: config.api_key_env,
    headers: { ...config.headers },
  });
}

function baseUrlFor(config: ProviderConfig, env: EnvReader): string {
  const variable = BASE_URL_OVERRIDES[config.kind];
  const override = variable === undefined ? undefined : nonEmpty(env(variable));
  if (variable !== undefined && override !== undefined) {
    if (!isHttpUrl(override)) {
      throw new CatalogError("environment", [{
        path: variable,
        message: `${JSON.stringify(override)} is not an http(s) URL; set it to the upstream ` +
          "root, e.g. http://127.0.0.1:8080",
      }]);
    }
    return normalizeBaseUrl(override);
  }
  const url = config.base_url ?? DEFAULT_BASE_URLS[config.kind];
  return url === undefined ? "" : normalizeBaseUrl(url);
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol, search, hash } = new URL(value);
  return (protocol === "http:" || protocol === "https:") && search === "" && hash === "";
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** Freezes the provider and keeps its key and header values out of `JSON.stringify` and
 * `console.log` (header values may carry credentials too). */
function guardSecret(provider: ResolvedProvider): ResolvedProvider {
  const redacted = () => ({
    ...provider,
    apiKey: provider.apiKey === undefined ? undefined : "[redacted]",
    headers: Object.fromEntries(Object.keys(provider.headers).map((name) => [name, "[redacted]"])),
  });
  Object.defineProperty(provider, "toJSON", { value: redacted, enumerable: false });
  Object.defineProperty(provider, Symbol.for("Deno.customInspect"), {
    value: (inspect: typeof Deno.inspect, options: Deno.InspectOptions) =>
      inspect(redacted(), options),
    enumerable: false,
  });
  Object.freeze(provider.headers);
  return Object.freeze(provider);
}
