/**
 * The streams bench's view inside a process started with `--inspect`: its memory as the runtime
 * counts it (`Deno.memoryUsage()`: V8's heap, the external memory V8 knows of such as
 * ArrayBuffers, and the resident total, the rest of which is native: the runtime's sockets,
 * buffers and allocator), a forced full garbage collection, and a heap snapshot written to a file
 * (`heap_summary.ts` sums one up), and a CPU profile. Speaks the Chrome DevTools protocol over the inspector's
 * WebSocket.
 * @module
 */

import type { CpuProfile } from "../cpu_profile.ts";
import { type AllocationSite, allocationSites, type SamplingNode } from "../allocation_sites.ts";

/** `Deno.memoryUsage()`, bytes. */
export interface MemoryUsage {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

/** A session with one process's inspector. */
export interface Inspector {
  memory(): Promise<MemoryUsage>;
  /** A full garbage collection (V8's heap; ArrayBuffers it frees go back to the allocator). */
  collectGarbage(): Promise<void>;
  /** Writes a heap snapshot (`.heapsnapshot` JSON) to `path`. */
  heapSnapshot(path: string): Promise<void>;
  /** Starts V8's sampling CPU profiler (a sample every `intervalUs`). */
  startProfile(intervalUs: number): Promise<void>;
  /** Stops it: the profile (`Profiler.stop`'s, as `cpu_profile.ts` reads it). */
  stopProfile(): Promise<CpuProfile>;
  /** Starts V8's sampling heap profiler: an allocation sampled every `intervalBytes` on
   * average, with where it was made. */
  startAllocations(intervalBytes: number): Promise<void>;
  /** Stops it: bytes sampled per allocation site, largest first. */
  stopAllocations(): Promise<AllocationSite[]>;
  close(): void;
}

/** Opens a session on the inspector at `url` (`ws://…`, from "Debugger listening on"). */
export async function openInspector(url: string): Promise<Inspector> {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error(`cannot reach the inspector at ${url}`));
  });
  let nextId = 1;
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  let onEvent: (message: Record<string, unknown>) => void = () => {};
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as Record<string, unknown>;
    const id = message.id as number | undefined;
    if (id === undefined) return onEvent(message);
    waiting.get(id)?.(message);
    waiting.delete(id);
  };
  const call = (method: string, params: Record<string, unknown> = {}) => {
    const id = nextId++;
    socket.send(JSON.stringify({ id, method, params }));
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      waiting.set(id, (message) => {
        if (message.error) reject(new Error(`${method}: ${JSON.stringify(message.error)}`));
        else resolve((message.result ?? {}) as Record<string, unknown>);
      });
    });
  };
  await call("Runtime.enable");
  return {
    async memory() {
      const result = await call("Runtime.evaluate", {
        expression: "JSON.stringify(Deno.memoryUsage())",
        returnByValue: true,
      });
      const value = (result.result as { value?: string } | undefined)?.value;
      if (typeof value !== "string") {
        throw new Error(`Deno.memoryUsage(): ${JSON.stringify(result)}`);
      }
      return JSON.parse(value) as MemoryUsage;
    },
    async collectGarbage() {
      await call("HeapProfiler.collectGarbage");
    },
    async heapSnapshot(path) {
      const file = await Deno.open(path, { write: true, create: true, truncate: true });
      const encoder = new TextEncoder();
      let writing = Promise.resolve();
      onEvent = (message) => {
        if (message.method !== "HeapProfiler.addHeapSnapshotChunk") return;
        const chunk = (message.params as { chunk: string }).chunk;
        writing = writing.then(async () => {
          const bytes = encoder.encode(chunk);
          for (let done = 0; done < bytes.length;) done += await file.write(bytes.subarray(done));
        });
      };
      try {
        await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
        await writing;
      } finally {
        onEvent = () => {};
        file.close();
      }
    },
    async startProfile(intervalUs) {
      await call("Profiler.enable");
      await call("Profiler.setSamplingInterval", { interval: intervalUs });
      await call("Profiler.start");
    },
    async stopProfile() {
      const { profile } = await call("Profiler.stop");
      return profile as CpuProfile;
    },
    async startAllocations(intervalBytes) {
      await call("HeapProfiler.enable");
      // Every allocation counts, not only those still alive at the end.
      await call("HeapProfiler.startSampling", {
        samplingInterval: intervalBytes,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
    },
    async stopAllocations() {
      const { profile } = await call("HeapProfiler.stopSampling");
      return allocationSites((profile as { head: SamplingNode }).head);
    },
    close: () => socket.close(),
  };
}
