/**
 * Shared rig for the Responses end-to-end tests: a running gateway whose OpenAI and Anthropic
 * providers are one fake upstream, the two official SDKs pointed at it, and raw access to a
 * streamed answer's SSE events for the checks the SDKs do not make.
 * @module
 */
import { parseSse } from "../../sse/parse_sse.ts";

export { type Rig, startRig } from "../rig.ts";

/** One SSE event with its data parsed. */
export interface RawEvent {
  /** The `event:` field, if any. */
  event?: string;
  data: Record<string, unknown>;
}

/** Every SSE event of a streamed answer, in order, with the JSON data parsed (`[DONE]` is
 * skipped). A data line that is not JSON fails the test that reads it. */
export async function readRawEvents(response: Response): Promise<RawEvent[]> {
  if (response.body === null) throw new Error("the streamed answer has no body");
  const events: RawEvent[] = [];
  const reader = response.body.pipeThrough(parseSse()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    if (value.data === "[DONE]") continue;
    const data = JSON.parse(value.data) as Record<string, unknown>;
    events.push(value.event === undefined ? { data } : { event: value.event, data });
  }
}

/** Runs `work` and returns what it threw; fails when it did not throw. */
export async function thrown(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail, but it succeeded");
}
