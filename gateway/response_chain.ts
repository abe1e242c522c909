/**
 * `previous_response_id` for upstreams that keep no state for us: gatehouse stores each
 * Responses answer's conversation (visible only to the key that made it; never with
 * `store: false`) and expands a named predecessor into history before translation.
 * @module
 */
import { collectParts } from "../core/collect.ts";
import type { AssistantMessage, CoreMessage, CoreRequest } from "../core/request.ts";
import type { CoreResponse } from "../core/response.ts";
import type { StreamPart } from "../core/stream.ts";
import { GatewayError } from "../core/errors.ts";
import { previousResponseId, responseIdFor } from "../protocols/openai_responses/mod.ts";
import type { GatewayDeps } from "./exchange.ts";

/** The history a `previous_response_id` names: its messages, null when gatehouse holds none. */
export interface StoredHistory {
  id: string;
  messages: CoreMessage[] | null;
}

/** The stored history a request's `previous_response_id` names; null when it names none. */
export async function storedHistory(
  deps: GatewayDeps,
  keyId: string,
  body: Record<string, unknown>,
): Promise<StoredHistory | null> {
  const id = previousResponseId(body);
  if (id === null) return null;
  const stored = await deps.store.loadResponse(id, keyId);
  return { id, messages: stored ? JSON.parse(stored.conversation) as CoreMessage[] : null };
}

/** The 404 for a predecessor gatehouse does not hold (OpenAI's own wording, plus why). */
export function previousResponseNotFound(id: string): GatewayError {
  return new GatewayError(
    "not_found",
    404,
    `Previous response with id '${id}' not found. gatehouse keeps a response for the key that ` +
      "created it, and not when it was created with store: false; send the history in `input` instead.",
    { param: "previous_response_id", code: "previous_response_not_found" },
  );
}

/** Whether a Responses request asks for its answer to be kept (the API's default is yes). */
export function wantsStore(body: Record<string, unknown>): boolean {
  return body.store !== false;
}

/** What the request path does with a finished response besides sending it. */
export interface ResponseKeeper {
  /** Sees a streamed response's parts. */
  stream(): TransformStream<StreamPart, StreamPart>;
  /** Sees a non-streamed response. */
  complete(response: CoreResponse): Promise<void>;
}

/** A keeper that stores the response under `keyId` for `previous_response_id`. */
export function responseKeeper(
  deps: GatewayDeps,
  keyId: string,
  request: CoreRequest,
): ResponseKeeper {
  return {
    stream: () => saveStreamedResponse(deps, keyId, request),
    complete: (response) => saveResponse(deps, keyId, request, response),
  };
}

/** Saves `response` as the end of `request`'s conversation under the id its client saw. */
export async function saveResponse(
  deps: GatewayDeps,
  keyId: string,
  request: CoreRequest,
  response: CoreResponse,
): Promise<void> {
  const answer: AssistantMessage = { role: "assistant", content: response.content };
  const conversation: CoreMessage[] = [...request.messages, answer];
  await deps.store.saveResponse({
    id: responseIdFor(response.id),
    keyId,
    conversation: JSON.stringify(conversation),
    createdAt: Date.now(),
  });
}

/** A pass-through transform that saves the streamed response once it finished. */
export function saveStreamedResponse(
  deps: GatewayDeps,
  keyId: string,
  request: CoreRequest,
): TransformStream<StreamPart, StreamPart> {
  const collector = collectParts();
  return new TransformStream({
    async transform(part, out) {
      collector.add(part);
      const response = part.type === "finish" ? collector.result() : null;
      // Saved before the terminal event goes out, so a client that chains at once finds it.
      if (response) {
        await saveResponse(deps, keyId, request, response).catch((error) =>
          deps.log.error("saving a response for previous_response_id failed", {
            error: String(error),
          })
        );
      }
      out.enqueue(part);
    },
  });
}
