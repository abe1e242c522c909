/**
 * The messages between the first thread and its worker threads (`--workers N`).
 * @module
 */
import type { LimitsState } from "../governance/shared/create_limits.ts";

/** First thread → worker. */
export type ToWorker =
  | {
    type: "start";
    worker: number;
    args: string[];
    hostname: string;
    port: number;
    /** The coordinator's end for this worker, when limits are shared without Redis. */
    limitsPort?: MessagePort;
    /** The first thread's end for this worker's metrics (`observe/metrics/cluster_link.ts`). */
    metricsPort?: MessagePort;
  }
  | { type: "signal"; name: Deno.Signal };

/** Worker → first thread. */
export type FromWorker =
  | { type: "listening"; hostname: string; port: number; limits: LimitsState }
  | { type: "failed"; message: string }
  | { type: "exited"; code: number };
