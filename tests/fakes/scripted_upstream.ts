/**
 * A fake provider that plays a model doing a tool round trip on every LLM wire, deciding each
 * answer from the conversation it receives (see `scripted_plan.ts` for the rules).
 *
 * ```ts
 * const upstream = startScriptedUpstream();
 * // turn 1: the client offers `Read` and says "read /etc/hostname" → a Read tool call
 * // turn 2: the request carries the tool result → text "Tool said: <first line>"
 * await upstream.close();
 * ```
 * Routes (by path suffix, any prefix): `/messages/count_tokens`, `/messages`, `/chat/completions`,
 * `/responses`. Streams when the body has `stream: true`.
 * @module
 */

import { type FakeServer, type RecordedRequest, startFakeServer } from "./fake_server.ts";
import { fakeErrorReply, jsonReply, sseReply } from "./replies.ts";
import { anthropicEvents, anthropicMessage } from "./scripted_anthropic.ts";
import { chatChunks, chatCompletion } from "./scripted_chat.ts";
import { type ReplyContext, replyContext } from "./scripted_context.ts";
import { type LlmWire, readConversation } from "./scripted_conversation.ts";
import { planStep, type ScriptedStep } from "./scripted_plan.ts";
import { type EchoedRequest, responsesBody, responsesEvents } from "./scripted_responses.ts";
import { type ReplayOptions, sseReplayStream } from "./sse_replay.ts";
import { countTokensBody } from "./tokens.ts";

export type { RecordedRequest } from "./fake_server.ts";
export type { ScriptedStep } from "./scripted_plan.ts";

/** Options of {@linkcode startScriptedUpstream}. */
export interface ScriptedUpstreamOptions {
  /** Wait this long before each streamed event (ms). */
  delayMs?: number;
  /** Re-cut streamed output into odd byte chunks (see `sse_replay.ts`). */
  splitBytes?: ReplayOptions["splitBytes"];
}

/** A running scripted upstream. */
export interface ScriptedUpstream extends FakeServer {
  /** The step taken for each LLM request, in order (count_tokens is not a step). */
  readonly steps: { wire: LlmWire; stream: boolean; step: ScriptedStep }[];
}

function wireOfPath(path: string): LlmWire | undefined {
  if (path.endsWith("/messages")) return "anthropic";
  if (path.endsWith("/chat/completions")) return "chat";
  if (path.endsWith("/responses")) return "responses";
  return undefined;
}

function field(body: unknown, key: string): unknown {
  return typeof body === "object" && body !== null
    ? (body as Record<string, unknown>)[key]
    : undefined;
}

function echoOf(body: unknown): EchoedRequest {
  return {
    instructions: field(body, "instructions"),
    tools: field(body, "tools"),
    store: field(body, "store"),
    tool_choice: field(body, "tool_choice"),
    parallel_tool_calls: field(body, "parallel_tool_calls"),
  };
}

function render(
  wire: LlmWire,
  stream: boolean,
  step: ScriptedStep,
  ctx: ReplyContext,
  body: unknown,
): unknown {
  switch (wire) {
    case "anthropic":
      return stream ? anthropicEvents(step, ctx) : anthropicMessage(step, ctx);
    case "chat": {
      const includeUsage = field(field(body, "stream_options"), "include_usage") === true;
      return stream ? chatChunks(step, ctx, includeUsage) : chatCompletion(step, ctx);
    }
    case "responses":
      return stream
        ? responsesEvents(step, ctx, echoOf(body))
        : responsesBody(step, ctx, echoOf(body));
  }
}

/** Starts a scripted fake provider on `http://127.0.0.1:<random port>`. */
export function startScriptedUpstream(options: ScriptedUpstreamOptions = {}): ScriptedUpstream {
  const steps: ScriptedUpstream["steps"] = [];

  const answer = (request: RecordedRequest, signal: AbortSignal): Response => {
    if (request.method !== "POST") {
      return fakeErrorReply(
        404,
        `scripted upstream: no route for ${request.method} ${request.path}`,
      );
    }
    if (request.path.endsWith("/messages/count_tokens")) {
      return jsonReply(countTokensBody(request.rawBody));
    }
    const wire = wireOfPath(request.path);
    if (wire === undefined) {
      return fakeErrorReply(404, `scripted upstream: no route for POST ${request.path}`);
    }
    if (typeof request.body !== "object" || request.body === null) {
      return fakeErrorReply(
        400,
        `scripted upstream: POST ${request.path} needs a JSON object body`,
      );
    }
    const stream = field(request.body, "stream") === true;
    const step = planStep(readConversation(wire, request.body));
    steps.push({ wire, stream, step });
    const ctx = replyContext(request.body, request.rawBody, steps.length, step);
    const rendered = render(wire, stream, step, ctx, request.body);
    if (!stream) return jsonReply(rendered);
    const lines = (rendered as unknown[]).map((event) => JSON.stringify(event));
    return sseReply(sseReplayStream(wire, lines, {
      delayMs: options.delayMs,
      splitBytes: options.splitBytes,
      signal,
    }));
  };

  const server = startFakeServer("scripted upstream", answer);
  return {
    ...server,
    get aborted() {
      return server.aborted;
    },
    steps,
  };
}
