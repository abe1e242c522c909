/**
 * Response and item ids written to Responses clients. The response id is derived from the
 * core id deterministically (the gateway stores conversations under it for
 * `previous_response_id`); item ids reuse the upstream's own ids when it gave them and are
 * otherwise numbered within the response, so they are unique per response.
 * @module
 */

/** The `resp_...` id a client sees for a core response id. */
export function responseIdFor(coreId: string): string {
  if (coreId.startsWith("resp_")) return coreId;
  const clean = coreId.replace(/[^A-Za-z0-9_-]/g, "");
  return `resp_${clean || crypto.randomUUID().replaceAll("-", "")}`;
}

/** Item id prefixes, as OpenAI uses them. */
export type ItemPrefix = "msg" | "rs" | "fc" | "ctc" | "lsh";

/** Hands out unique item ids for one response: `preferred` (an upstream id) when it is free,
 * else `<prefix>_<response>_<n>`. */
export function itemIdAllocator(
  responseId: string,
): (prefix: ItemPrefix, preferred?: string) => string {
  const base = responseId.replace(/^resp_/, "");
  const used = new Set<string>();
  let n = 0;
  return (prefix, preferred) => {
    let id = preferred && !used.has(preferred) ? preferred : `${prefix}_${base}_${n}`;
    while (used.has(id)) id = `${prefix}_${base}_${++n}`;
    n++;
    used.add(id);
    return id;
  };
}
