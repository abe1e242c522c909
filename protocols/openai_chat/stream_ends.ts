/**
 * How a chat stream ends, for the passthrough: `[DONE]` (or a chunk with a `finish_reason`: some
 * compatible servers stop there) is a clean end; a `{"error":{...}}` chunk ends it failed. A
 * stream that breaks off gets that error chunk from the gateway, with no `[DONE]` after it.
 * @module
 */
import type { GatewayError } from "../../core/errors.ts";
import type { StreamEnds, TextTest } from "../codec.ts";
import { sseText } from "../../sse/encode_sse.ts";
import { openaiErrorBody } from "./encode_error.ts";

const FINISH_REASON = /"finish_reason"\s*:\s*"/;
const ERROR_KEY = /"error"\s*:/;
/** What may end a chat stream, tested one by one: `"finish_reason":` stands in every chunk, and
 * an alternation tried at each of them cost a chunk three times the usage test alone. */
const ENDS: TextTest = {
  test: (text) => text.includes("[DONE]") || FINISH_REASON.test(text) || ERROR_KEY.test(text),
};

/** A watcher for one chat stream. */
export function chatStreamEnds(): StreamEnds {
  return {
    pattern: ENDS,
    see(event) {
      const data = event.data.trim();
      if (data === "[DONE]") return "finish";
      if (!data.startsWith("{")) return null;
      if (FINISH_REASON.test(data)) return "finish";
      if (!ERROR_KEY.test(data)) return null;
      try {
        const chunk = JSON.parse(data) as { error?: unknown } | null;
        return chunk !== null && typeof chunk === "object" && chunk.error != null ? "error" : null;
      } catch {
        return null;
      }
    },
    failure: (error: GatewayError) => sseText(JSON.stringify(openaiErrorBody(error))),
  };
}
