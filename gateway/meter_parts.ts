/**
 * Feeds the usage of internal stream parts to a meter as they pass.
 * @module
 */
import type { Step } from "../core/step.ts";
import type { StreamPart } from "../core/stream.ts";
import type { Meter } from "./ledger.ts";

/** A pass-through step that reads `start` and `finish` usage. */
export function meterParts(meter: Meter): Step<StreamPart, StreamPart> {
  return {
    transform(part, out) {
      if (part.type === "start" && part.usage) meter.add(part.usage);
      else if (part.type === "finish") meter.add(part.usage);
      out.enqueue(part);
    },
  };
}
