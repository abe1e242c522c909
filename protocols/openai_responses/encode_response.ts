/**
 * A core response → the Responses body a client gets: output items in order (reasoning,
 * assistant messages, function/custom/local shell calls), status from the stop reason, usage,
 * and the echoed request fields. A refusal's explanation is a `refusal` content part of the
 * last assistant message (a new one when the output does not end with a message).
 * @module
 */
import type { ReasoningPart } from "../../core/content.ts";
import type { Converted, Warning } from "../../core/convert.ts";
import type { CoreResponse } from "../../core/response.ts";
import type { EncodeContext } from "../codec.ts";
import { callItem, callPayload, callShaper } from "./call_items.ts";
import { itemIdAllocator, type ItemPrefix, responseIdFor } from "./ids.ts";
import { endingOf } from "./map_stop_reason.ts";
import { usageToResponses } from "./map_usage.ts";
import { encryptedContentOf } from "./reasoning_token.ts";
import { responseObject } from "./response_object.ts";
import type { WireMessageItem, WireOutputItem, WireReasoningItem, WireResponse } from "./wire.ts";

/** The id prefix of each call item type. */
export const CALL_PREFIX: Record<string, ItemPrefix> = {
  function_call: "fc",
  custom_tool_call: "ctc",
  local_shell_call: "lsh",
};

/** A reasoning part → its item; the token only when the client asked for it. */
export function reasoningItem(
  part: Pick<ReasoningPart, "text" | "token" | "redacted">,
  id: string,
  includeEncrypted: boolean,
): WireReasoningItem {
  const item: WireReasoningItem = {
    type: "reasoning",
    id,
    summary: part.text ? [{ type: "summary_text", text: part.text }] : [],
  };
  if (includeEncrypted && part.token) {
    item.encrypted_content = encryptedContentOf(part.token, part.redacted === true);
  }
  return item;
}

/** Encodes a complete response. */
export function encodeResponse(
  response: CoreResponse,
  ctx: EncodeContext,
): Converted<WireResponse> {
  const id = responseIdFor(response.id);
  const nextId = itemIdAllocator(id);
  const shape = callShaper(ctx.request);
  const includeEncrypted = ctx.request.reasoning?.includeEncrypted === true;
  const output: WireOutputItem[] = [];
  const warnings: Warning[] = [];
  let message: WireMessageItem | null = null;
  const openMessage = (): WireMessageItem => {
    if (message) return message;
    const item: WireMessageItem = {
      type: "message",
      id: nextId("msg"),
      role: "assistant",
      status: "completed",
      content: [],
    };
    output.push(item);
    message = item;
    return item;
  };

  for (const part of response.content) {
    if (part.type === "text") {
      openMessage().content.push({ type: "output_text", text: part.text, annotations: [] });
      continue;
    }
    message = null;
    if (part.type === "reasoning") {
      output.push(reasoningItem(part, nextId("rs", part.itemId), includeEncrypted));
      continue;
    }
    const s = shape(part.name, part.kind);
    const ids = { id: nextId(CALL_PREFIX[s.type] ?? "fc", part.itemId), callId: part.id };
    output.push(callItem(s, ids, callPayload(s, part.arguments), "completed"));
  }

  const details = response.stopDetails;
  if (details?.explanation) {
    openMessage().content.push({ type: "refusal", refusal: details.explanation });
  }
  if (details?.category !== undefined) {
    warnings.push({
      field: "stopDetails.category",
      message: "Responses has no field for the category of a refusal; it is dropped.",
    });
  }

  const ending = endingOf(response.stopReason);
  const body = responseObject(ctx, {
    id,
    createdAt: response.created,
    status: ending.status,
    output,
    usage: usageToResponses(response.usage),
    ...(ending.reason ? { incompleteReason: ending.reason } : {}),
  });
  return { value: body, warnings };
}
