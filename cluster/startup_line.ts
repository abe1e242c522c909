/**
 * The one line a start prints once the API listens: where, how many workers, which store, where
 * limits are counted, how many models are listed. Never a secret (URLs lose their credentials).
 * @module
 */
import type { Store } from "../store/store.ts";
import type { ClusterSettings } from "./settings.ts";

/** What the line reports. */
export interface StartupFacts {
  address: { hostname: string; port: number };
  settings: ClusterSettings;
  store: Pick<Store, "describe" | "kind">;
  /** Where limits are counted, as the limits report it. */
  limits: { detail: string };
  listed: number;
}

/** `gatehouse listening on http://127.0.0.1:8080 (workers 2, store sqlite ./data/gatehouse.db,
 * limits shared through Redis at 127.0.0.1:6379, models listed: 12)`. */
export function startupLine(facts: StartupFacts): string {
  const { address, workers, store, limits, modelsListed } = startupFields(facts);
  return `gatehouse listening on ${address} (workers ${workers}, store ${store}, ${limits}, ` +
    `models listed: ${modelsListed})`;
}

/** The same facts as the `start` event's fields (json log format): `address`, `workers`,
 * `storeKind`, `store`, `limits`, `modelsListed`. */
export function startupFields(facts: StartupFacts): {
  address: string;
  workers: number;
  storeKind: string;
  store: string;
  limits: string;
  modelsListed: number;
} {
  const { hostname, port } = facts.address;
  const shown = hostname === "0.0.0.0" ? "127.0.0.1" : hostname;
  // A Postgres store describes itself by its URL (without credentials); a SQLite one by its path.
  const store = facts.store.kind === "sqlite"
    ? `sqlite ${facts.store.describe()}`
    : facts.store.describe();
  return {
    address: `http://${shown}:${port}`,
    workers: facts.settings.workers,
    storeKind: facts.store.kind,
    store,
    limits: facts.limits.detail,
    modelsListed: facts.listed,
  };
}
