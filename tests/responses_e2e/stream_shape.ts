/**
 * The shape rules of a Responses event stream as OpenAI sends it, checked on the raw SSE a
 * client receives: `sequence_number` 0, 1, 2, ...; `response.created` then
 * `response.in_progress` first; exactly one terminal event, last; each output item added before
 * its own events and done after them, at consecutive output indexes; deltas that add up to their
 * `.done` text; and (unless it failed) every item done and a terminal response whose output is
 * the items as they were done.
 * @module
 */
import assert from "node:assert/strict";
import type { RawEvent } from "./rig.ts";

/** Event types of the Responses stream (OpenAI's streaming reference), by family. */
const KNOWN_TYPES: ReadonlySet<string> = new Set([
  "response.created",
  "response.in_progress",
  "response.output_item.added",
  "response.output_item.done",
  "response.content_part.added",
  "response.content_part.done",
  "response.output_text.delta",
  "response.output_text.done",
  "response.refusal.delta",
  "response.refusal.done",
  "response.function_call_arguments.delta",
  "response.function_call_arguments.done",
  "response.custom_tool_call_input.delta",
  "response.custom_tool_call_input.done",
  "response.reasoning_summary_part.added",
  "response.reasoning_summary_part.done",
  "response.reasoning_summary_text.delta",
  "response.reasoning_summary_text.done",
  "response.completed",
  "response.incomplete",
  "response.failed",
]);

/** The terminal event types. */
export const TERMINAL: ReadonlySet<string> = new Set([
  "response.completed",
  "response.incomplete",
  "response.failed",
]);

type Obj = Record<string, unknown>;

/** Checks every rule above; returns the terminal event's response object. */
export function checkStreamShape(events: RawEvent[]): Obj {
  assert.ok(events.length >= 3, `a stream of ${events.length} events`);
  events.forEach((e, i) => {
    assert.equal(e.data.sequence_number, i, `sequence_number of event ${i} (${e.data.type})`);
    assert.equal(e.event, e.data.type, `event name of event ${i}`);
    assert.ok(KNOWN_TYPES.has(String(e.data.type)), `unknown event type ${e.data.type}`);
  });
  assert.equal(events[0]!.data.type, "response.created");
  assert.equal(events[1]!.data.type, "response.in_progress");
  const terminals = events.filter((e) => TERMINAL.has(String(e.data.type)));
  assert.equal(terminals.length, 1, "exactly one terminal event");
  assert.equal(events.at(-1), terminals[0], "the terminal event is last");

  const added = new Map<number, number>();
  const done = new Map<number, Obj>();
  const deltas = new Map<string, string>();
  events.forEach((e, i) => {
    const type = String(e.data.type);
    const index = e.data.output_index;
    if (type === "response.output_item.added") {
      assert.equal(index, added.size, "output items are added at consecutive indexes");
      added.set(index as number, i);
      return;
    }
    if (typeof index !== "number") return;
    assert.ok(added.has(index), `${type} before its item was added`);
    assert.ok(!done.has(index), `${type} after its item was done`);
    if (type === "response.output_item.done") {
      done.set(index, e.data.item as Obj);
      return;
    }
    const key = `${index}:${e.data.content_index ?? e.data.summary_index ?? ""}:${family(type)}`;
    if (type.endsWith(".delta")) deltas.set(key, (deltas.get(key) ?? "") + String(e.data.delta));
    if (type.endsWith(".done") && !type.includes("_part.")) {
      const full = e.data.text ?? e.data.refusal ?? e.data.arguments ?? e.data.input;
      assert.equal(deltas.get(key) ?? "", full, `the deltas of ${type} add up to its text`);
    }
  });
  const response = terminals[0]!.data.response as Obj;
  // A failed response may leave items unfinished; a finished one may not.
  if (response.status === "failed") return response;
  assert.equal(done.size, added.size, "every added item is done");
  assert.deepEqual(
    response.output,
    [...done.keys()].sort((a, b) => a - b).map((i) => done.get(i)),
    "the terminal response's output is the done items",
  );
  return response;
}

/** `response.output_text.delta` → `output_text`: deltas and their `.done` share a family. */
function family(type: string): string {
  return type.replace(/^response\./, "").replace(/\.(delta|done)$/, "");
}
