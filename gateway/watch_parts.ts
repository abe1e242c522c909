/**
 * Tells the lifecycle what a translated stream's parts say as they pass: usage, the upstream's
 * id, the output delivered (when a budget meters it), and how the stream ended. The response id the client sees is gatehouse's own.
 * When the budget watch cuts the stream, the part that reached the budget is the last one to
 * go on, followed by the budget's error.
 * @module
 */
import type { Step } from "../core/step.ts";
import type { StreamPart } from "../core/stream.ts";
import type { Lifecycle } from "./lifecycle.ts";

/** A pass-through step over stream parts, reporting to `life`. */
export function watchParts(life: Lifecycle): Step<StreamPart, StreamPart> {
  const meter = life.meter;
  // Once the budget watch ends the stream, nothing after the part that reached the budget goes
  // on (the rest of an upstream read may carry many more deltas): its error ends the stream.
  let cut = false;
  return {
    transform(part, out) {
      if (cut) return;
      switch (part.type) {
        case "text_delta":
        case "reasoning_delta":
          meter?.delivered(part.text);
          break;
        case "tool_call_delta":
          meter?.delivered(part.delta);
          break;
        case "start":
          life.upstreamAnswered(part.id);
          if (part.usage) life.add(part.usage);
          return out.enqueue({ ...part, id: life.responseId });
        case "finish":
          life.add(part.usage);
          life.finished(part.stopReason);
          life.streamEnded("finish");
          break;
        case "error":
          life.streamEnded(part.error);
          // The decoder saw the body end early; the lifecycle may know why (the idle timeout).
          if (life.streamError !== part.error && life.streamError !== null) {
            return out.enqueue({ ...part, error: life.streamError });
          }
          break;
      }
      out.enqueue(part);
      if (meter !== null && life.cut) {
        cut = true;
        out.enqueue({ type: "error", error: life.streamError! });
      }
    },
  };
}
