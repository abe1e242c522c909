/**
 * The set-up scripts under /setup/: the one-file `gatehouse-setup.mjs` and the `sh` entry
 * points, with this deployment's addresses written in. Built once, on first request.
 * @module
 */
import {
  bundleSetupScript,
  renderEntryScript,
  type ServedAddresses,
  SETUP_CLIENTS,
  type SetupClient,
} from "../setup/bundle.ts";
import type { Site } from "./site.ts";

/** A served script. */
export interface Script {
  body: string;
  type: string;
}

/** The scripts of one site, by file name (`gatehouse-setup.mjs`, `codex.sh`, ...). */
export function setupScripts(site: Site): (name: string) => Promise<Script | null> {
  const served: ServedAddresses = {
    baseUrl: site.api,
    docsUrl: site.docs,
    altBaseUrl: site.alt?.url ?? null,
    altActive: site.alt?.active ?? false,
  };
  const cache = new Map<string, Promise<Script>>();
  const build = (name: string): Promise<Script> | null => {
    if (name === "gatehouse-setup.mjs") {
      return bundleSetupScript(served).then((body) => ({
        body,
        type: "text/javascript; charset=utf-8",
      }));
    }
    const client = name.endsWith(".sh") ? name.slice(0, -3) : "";
    if (!Object.hasOwn(SETUP_CLIENTS, client)) return null;
    return renderEntryScript(client as SetupClient, site.docs).then((body) => ({
      body,
      type: "text/plain; charset=utf-8",
    }));
  };
  return (name) => {
    let entry = cache.get(name);
    if (entry === undefined) {
      const built = build(name);
      if (built === null) return Promise.resolve(null);
      entry = built;
      entry.catch(() => cache.delete(name));
      cache.set(name, entry);
    }
    return entry;
  };
}
