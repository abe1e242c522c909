/**
 * What the first thread does with the store before anything serves: creates the first (admin) key
 * on an empty store, and refuses to be a second instance on one Postgres database without Redis
 * while keys or teams have limits, since each instance would then count them alone.
 * @module
 */
import type { Store } from "../store/store.ts";
import type { Policy } from "../governance/policy.ts";
import { hasLimits } from "../governance/scope.ts";
import type { ClusterSettings } from "./settings.ts";

/** The Postgres store's hold on the one-instance-without-Redis lock. */
interface SoleInstanceLock {
  holdSoleInstanceLock(): Promise<boolean>;
}

function lockable(store: Store): store is Store & SoleInstanceLock {
  return "holdSoleInstanceLock" in store && typeof store.holdSoleInstanceLock === "function";
}

/** Creates the first key when none exists; prints it once. */
export async function createFirstKey(store: Store, print: (text: string) => void): Promise<void> {
  if (await store.countKeys() > 0) return;
  // The first key belongs to whoever runs the gateway: an admin key, so the admin API works
  // from the start (it may call every model route too).
  const { key, record } = await store.createKey({ name: "first key", admin: true });
  print(
    `\nNo API keys existed, so an admin key was created (id ${record.id}). It is shown once; store it now:\n\n    ${key}\n\n` +
      "It may call the admin API (/admin/v1) and every model. Give people their own keys: " +
      "`deno task keys create --name NAME [--rpm N] [--budget-usd X] ...`, " +
      "`deno task keys list`, `deno task keys revoke ID`.\n",
  );
}

/** What limits live keys and teams have: the names of those with any. */
async function limited(store: Store): Promise<string[]> {
  const named: string[] = [];
  const add = (what: string, policy: Policy) => {
    if (hasLimits(policy)) named.push(what);
  };
  for (const key of await store.listKeys()) {
    if (key.revokedAt === null) add(`key ${key.id}`, key.policy);
  }
  for (const team of await store.listTeams()) add(`team ${team.id}`, team.policy);
  return named;
}

/**
 * On Postgres without Redis, takes the database's one-instance lock (held while this process
 * runs). When another instance holds it: refuses to start if any live key or team has a rate,
 * parallel or budget limit (each instance would count it alone: a key with rpm 10 would get 10
 * per instance, and a budget would not see the other instance's spend until its next period);
 * else starts and returns a warning saying limits added later are counted per instance.
 */
export async function checkSoleInstance(
  store: Store,
  settings: ClusterSettings,
): Promise<string | null> {
  if (settings.redisUrl !== null || !lockable(store)) return null;
  if (await store.holdSoleInstanceLock()) return null;
  const names = await limited(store);
  if (names.length > 0) {
    const shown = names.slice(0, 3).join(", ") + (names.length > 3 ? ", …" : "");
    throw new Error(
      `another gatehouse instance already serves this Postgres database without Redis, and ` +
        `${names.length} key${names.length === 1 ? "" : "s"} or team${
          names.length === 1 ? "" : "s"
        } have limits (${shown}): each instance would count them alone. Set REDIS_URL on every ` +
        "instance to share limits, or run one instance (with --workers N for every core)",
    );
  }
  return "another gatehouse instance serves this Postgres database without Redis; no key or " +
    "team has limits now, but limits added later are counted by each instance alone until " +
    "REDIS_URL is set on every instance";
}
