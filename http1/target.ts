/**
 * Request targets: the origin a URL's connection goes to, and what its request head names.
 * @module
 */
import { type Origin, originOf } from "./connection.ts";

/** Where a request goes, as its head names it. */
export interface Target {
  readonly origin: Origin;
  /** Path and query. */
  readonly path: string;
  /** The `host` header's value. */
  readonly host: string;
}

/** Parsed targets by URL. A gateway calls few distinct URLs (a provider root and a handful of
 * paths), and parsing one costs more than the rest of the request head; the cap bounds what
 * client-supplied query strings can add. */
const targets = new Map<string, Target>();
const TARGETS_CAP = 256;

/** The target of `input`, an absolute http: or https: URL. */
export function targetOf(input: string): Target {
  let target = targets.get(input);
  if (target === undefined) {
    const url = new URL(input);
    target = { origin: originOf(url), path: url.pathname + url.search, host: url.host };
    if (targets.size >= TARGETS_CAP) targets.clear();
    targets.set(input, target);
  }
  return target;
}
