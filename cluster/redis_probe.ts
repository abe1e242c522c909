/**
 * Whether a Redis server answers at a URL: one PING on a short-lived connection. The tests use it
 * to skip, saying why, where no Redis runs (and to wait for a Redis they started).
 * @module
 */
import { Redis } from "ioredis";

/** True when a PING at `url` is answered within `timeoutMs`. */
export async function redisReachable(url: string, timeoutMs = 1_000): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    return await client.ping() === "PONG";
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
