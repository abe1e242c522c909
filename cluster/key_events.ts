/**
 * Key changes carried to every instance over Redis pub/sub. A revocation, rotation or policy
 * change made through one instance (its admin API) is published; every other instance (and every
 * other worker) forgets its verified keys at once, so the next request of that key reads the
 * store. Without this, each instance still notices within its store's key-generation check
 * (250 ms polling, and Postgres NOTIFY), which also covers changes made by the CLI; the pub/sub
 * makes it immediate and costs nothing on the request path.
 *
 * After Redis comes back from an outage every instance forgets its verified keys too: a message
 * sent while it was away was lost.
 * @module
 */
import { Redis } from "ioredis";
import type { Store } from "../store/store.ts";
import type { Logger } from "../gateway/exchange.ts";
import { redactUrl } from "./settings.ts";

/** The channel key changes are published on (under the limits' key prefix). */
export const KEY_CHANNEL = "gatehouse:keys";

/** A running subscription. */
export interface KeyEvents {
  /** Unsubscribes and closes both connections. */
  close(): Promise<void>;
}

/** How {@link shareKeyChanges} is wired. */
export interface KeyEventsOptions {
  redisUrl: string;
  store: Pick<Store, "onKeysChanged" | "forgetVerifiedKeys">;
  /** Tells this publisher's own messages apart (one per worker). */
  instanceId: string;
  log: Logger;
  /** Default {@link KEY_CHANNEL}; tests isolate with their own. */
  channel?: string;
}

/** Publishes this store's key changes and applies everyone else's. */
export function shareKeyChanges(options: KeyEventsOptions): KeyEvents {
  const { store, instanceId, log } = options;
  const channel = options.channel ?? KEY_CHANNEL;
  const where = redactUrl(options.redisUrl);
  const connect = () =>
    new Redis(options.redisUrl, {
      // A publish while Redis is away fails at once instead of queueing: the store's own
      // generation check still carries the change.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (times: number) => Math.min(times * 200, 2_000),
    });
  const publisher = connect();
  const subscriber = connect();
  // ioredis reports a lost connection as an error event; the reconnect is its own.
  publisher.on("error", () => {});
  subscriber.on("error", () => {});
  let subscribedOnce = false;
  subscriber.on("ready", () => {
    subscriber.subscribe(channel).then(() => {
      if (subscribedOnce) {
        store.forgetVerifiedKeys();
        log.info("key changes: Redis is back; verified keys forgotten", { redis: where });
      }
      subscribedOnce = true;
    }, (error: Error) => log.warn("key changes: subscribe failed", { error: error.message }));
  });
  subscriber.on("message", (from: string, sender: string) => {
    if (from === channel && sender !== instanceId) store.forgetVerifiedKeys();
  });
  const unsubscribe = store.onKeysChanged(() => {
    publisher.publish(channel, instanceId).catch((error: Error) =>
      log.warn("key changes: could not publish to Redis; other instances notice within 1 s", {
        redis: where,
        error: error.message,
      })
    );
  });
  return {
    async close() {
      unsubscribe();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
