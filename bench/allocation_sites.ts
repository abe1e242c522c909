/**
 * Where sampled allocations were made, from a V8 sampling heap profile
 * (`HeapProfiler.stopSampling`'s tree, whose self sizes V8 scales up from its samples to
 * estimate every byte allocated): summed by function and sorted, largest first. Shared by the
 * streams bench (`--allocations`) and `deno task bench --allocations=<scenario>` (`profile.ts`).
 * @module
 */

/** Where sampled allocations were made: a function (file:line) and the bytes sampled there. */
export interface AllocationSite {
  site: string;
  bytes: number;
}

/** A node of V8's sampling heap profile. */
export interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/** This checkout's root, as module URLs start with it. */
const ROOT = new URL("../", import.meta.url).href;

/** The project's own files by their path in it; packages by their path under node_modules. */
function shortFile(url: string): string {
  const packaged = url.lastIndexOf("/node_modules/");
  if (packaged !== -1) return url.slice(packaged + "/node_modules/".length);
  return url.startsWith(ROOT) ? url.slice(ROOT.length) : url;
}

/** Sums a sampling heap profile's self sizes by function. */
export function allocationSites(head: SamplingNode): AllocationSite[] {
  const sites = new Map<string, number>();
  const visit = (node: SamplingNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || "(anonymous)"} ${shortFile(url) || "(native)"}:${
      lineNumber + 1
    }`;
    sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    for (const child of node.children) visit(child);
  };
  visit(head);
  return [...sites].map(([site, bytes]) => ({ site, bytes })).sort((a, b) => b.bytes - a.bytes);
}
