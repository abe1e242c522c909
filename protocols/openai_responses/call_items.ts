/**
 * Core tool calls → Responses call items for a client. Which item type a call becomes depends
 * on its kind and on the tool the client declared: a function stand-in for `local_shell` gives
 * a `local_shell_call`; a custom tool an upstream could only call as a function (arguments
 * `{"input": "..."}`) gives a `custom_tool_call` with the raw input again; a namespaced tool
 * gives `{namespace, name}`.
 * @module
 */
import type { ToolCallPart } from "../../core/content.ts";
import { type CoreRequest, CUSTOM_TOOL_INPUT_FIELD } from "../../core/request.ts";
import { localShellAction } from "./local_shell.ts";
import { namespaceRestorer } from "./namespaces.ts";
import type {
  WireCustomToolCallItem,
  WireFunctionCallItem,
  WireItemStatus,
  WireLocalShellCallItem,
} from "./wire.ts";

/** How one call is written. `streamable` is false when the arguments must be complete before
 * they can be converted (unwrapped custom input, local shell action). */
export interface CallShape {
  type: "function_call" | "custom_tool_call" | "local_shell_call";
  name: string;
  namespace?: string;
  /** `custom_tool_call` whose core arguments are a `{"input": ...}` function wrapper. */
  unwrap: boolean;
  streamable: boolean;
}

/** Builds the shaper for one request's declared tools. */
export function callShaper(
  request: CoreRequest,
): (name: string, kind: ToolCallPart["kind"]) => CallShape {
  const restore = namespaceRestorer(request);
  const declared = new Map(request.tools.map((t) => [t.name, t]));
  return (name, kind) => {
    const tool = declared.get(name);
    const { name: clientName, namespace } = restore(name);
    const base = namespace === undefined ? { name: clientName } : { name: clientName, namespace };
    if (kind === "local_shell" || (tool?.type === "function" && tool.native === "local_shell")) {
      return { type: "local_shell_call", name: clientName, unwrap: false, streamable: false };
    }
    if (kind === "custom") {
      return { type: "custom_tool_call", ...base, unwrap: false, streamable: true };
    }
    if (tool?.type === "custom") {
      return { type: "custom_tool_call", ...base, unwrap: true, streamable: false };
    }
    return { type: "function_call", ...base, unwrap: false, streamable: true };
  };
}

/** The raw custom input inside a function wrapper (the whole text when it is not one). */
export function unwrapCustomInput(args: string): string {
  try {
    const parsed: unknown = JSON.parse(args);
    if (typeof parsed === "object" && parsed !== null) {
      const input = (parsed as Record<string, unknown>)[CUSTOM_TOOL_INPUT_FIELD];
      if (typeof input === "string") return input;
    }
  } catch {
    // Not JSON: the model wrote the input itself.
  }
  return args;
}

/** The text a call item carries (arguments or input) for complete core arguments. */
export function callPayload(shape: CallShape, args: string): string {
  return shape.unwrap ? unwrapCustomInput(args) : args;
}

/** Any call item. */
export type WireCallItem = WireFunctionCallItem | WireCustomToolCallItem | WireLocalShellCallItem;

/** A call item with the given state. `payload` is the arguments/input text written so far
 * (for local shell, the complete core arguments or "" while in progress). */
export function callItem(
  shape: CallShape,
  ids: { id: string; callId: string },
  payload: string,
  status: WireItemStatus,
): WireCallItem {
  const ns = shape.namespace === undefined ? {} : { namespace: shape.namespace };
  switch (shape.type) {
    case "function_call":
      return {
        type: "function_call",
        id: ids.id,
        call_id: ids.callId,
        name: shape.name,
        arguments: payload,
        status,
        ...ns,
      };
    case "custom_tool_call":
      return {
        type: "custom_tool_call",
        id: ids.id,
        call_id: ids.callId,
        name: shape.name,
        input: payload,
        status,
        ...ns,
      };
    case "local_shell_call":
      return {
        type: "local_shell_call",
        id: ids.id,
        call_id: ids.callId,
        status,
        action: (payload ? localShellAction(payload) : null) ??
          { type: "exec", command: [], env: {} },
      };
  }
}
