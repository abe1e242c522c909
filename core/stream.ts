/**
 * The typed stream-part union: what every upstream stream decodes into and every client
 * stream encodes from. Blocks are numbered by `index` in output order across kinds.
 * @module
 */
import type { VendorToken } from "./content.ts";
import type { StopDetails, StopReason, Usage } from "./response.ts";
import type { GatewayError } from "./errors.ts";

/** One event of a response stream. */
export type StreamPart =
  | { type: "start"; id: string; model: string; created: number; usage?: Partial<Usage> }
  | { type: "text_start"; index: number }
  | { type: "text_delta"; index: number; text: string }
  | { type: "text_end"; index: number }
  | { type: "reasoning_start"; index: number; summary?: boolean; itemId?: string }
  | { type: "reasoning_delta"; index: number; text: string }
  | { type: "reasoning_token"; index: number; token: VendorToken }
  | { type: "reasoning_end"; index: number; redacted?: boolean }
  | {
    type: "tool_call_start";
    index: number;
    id: string;
    name: string;
    kind: "function" | "custom" | "local_shell";
    itemId?: string;
  }
  | { type: "tool_call_delta"; index: number; delta: string }
  | { type: "tool_call_end"; index: number }
  | {
    type: "finish";
    stopReason: StopReason;
    stopSequence?: string;
    /** Why the model declined (see `CoreResponse.stopDetails`). */
    stopDetails?: StopDetails;
    usage: Usage;
  }
  | { type: "error"; error: GatewayError };

/** The `type` tags of `StreamPart`. */
export type StreamPartType = StreamPart["type"];

/** Compile-time exhaustiveness guard for `switch` statements. */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
