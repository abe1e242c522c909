/**
 * The built-in mock provider: deterministic replies in the internal representation, so every
 * client protocol's own encoder renders them. For trying gatehouse without a provider account
 * and for load tests. Same request, same reply, same usage.
 * @module
 */
import type { CoreRequest } from "../../core/request.ts";
import type { CoreResponse, Usage } from "../../core/response.ts";
import type { StreamPart } from "../../core/stream.ts";
import { countRequestTokens, countTextTokens } from "../../tokens/count_tokens.ts";

/** What the mock says for a request. */
export interface MockContent {
  reasoning: string | null;
  text: string;
  usage: Usage;
  id: string;
  /** The reply was cut at the request's output-token limit. */
  truncated: boolean;
}

function lastUserText(request: CoreRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (message.role !== "user") continue;
    const text = message.content.flatMap((p) => p.type === "text" ? [p.text] : []).join(" ").trim();
    if (text) return text;
  }
  return "";
}

/** A response id: unique per reply (the content is what stays deterministic), since clients
 * chain and store replies by id. */
function replyId(): string {
  return crypto.randomUUID().replaceAll("-", "").slice(0, 20);
}

/** The deterministic reply to `request`, with `clientModel` named in it. */
export function mockContent(request: CoreRequest, clientModel: string): MockContent {
  const said = lastUserText(request).replace(/\s+/g, " ");
  const quoted = said.length > 120 ? `${said.slice(0, 117)}...` : said;
  const text = `Mock reply from gatehouse (model ${clientModel}). You said: "${quoted}". ` +
    "Configure a provider credential to get real answers.";
  const reasoning = request.reasoning && request.reasoning.mode !== "disabled"
    ? "The mock provider does not think; this is its fixed reasoning text."
    : null;
  const reasoningTokens = reasoning ? countTextTokens(reasoning) : 0;
  const maxTokens = request.maxOutputTokens ?? Infinity;
  let finalText = text;
  if (countTextTokens(text) + reasoningTokens > maxTokens) {
    const kept: string[] = [];
    for (const word of text.split(/(?<= )/)) {
      if (countTextTokens(kept.join("") + word) + reasoningTokens > maxTokens) break;
      kept.push(word);
    }
    finalText = kept.join("");
  }
  return {
    truncated: finalText !== text,
    reasoning,
    text: finalText,
    id: replyId(),
    usage: {
      inputTokens: countRequestTokens(request),
      outputTokens: countTextTokens(finalText) + reasoningTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens,
    },
  };
}

function stopReason(content: MockContent) {
  return content.truncated ? "max_tokens" as const : "end_turn" as const;
}

/** The non-streamed reply. */
export function mockResponse(request: CoreRequest, clientModel: string, now: number): CoreResponse {
  const content = mockContent(request, clientModel);
  return {
    id: `mock_${content.id}`,
    model: clientModel,
    created: Math.floor(now / 1000),
    content: [
      ...(content.reasoning ? [{ type: "reasoning" as const, text: content.reasoning }] : []),
      { type: "text", text: content.text },
    ],
    stopReason: stopReason(content),
    usage: content.usage,
  };
}

/** The streamed reply: one text delta per word, `delayMs` apart. Stops early when `signal`
 * aborts (the client went away). */
export function mockStream(
  request: CoreRequest,
  clientModel: string,
  now: number,
  delayMs: number,
): ReadableStream<StreamPart> {
  const content = mockContent(request, clientModel);
  const parts: StreamPart[] = [{
    type: "start",
    id: `mock_${content.id}`,
    model: clientModel,
    created: Math.floor(now / 1000),
    usage: { inputTokens: content.usage.inputTokens },
  }];
  let index = 0;
  if (content.reasoning) {
    parts.push({ type: "reasoning_start", index });
    parts.push({ type: "reasoning_delta", index, text: content.reasoning });
    parts.push({ type: "reasoning_end", index });
    index++;
  }
  parts.push({ type: "text_start", index });
  for (const word of content.text.split(/(?<= )/)) {
    parts.push({ type: "text_delta", index, text: word });
  }
  parts.push({ type: "text_end", index });
  parts.push({ type: "finish", stopReason: stopReason(content), usage: content.usage });
  let next = 0;
  return new ReadableStream<StreamPart>({
    async pull(controller) {
      const part = parts[next++];
      if (!part) return controller.close();
      if (delayMs > 0 && part.type === "text_delta") {
        await new Promise((r) => setTimeout(r, delayMs));
      }
      controller.enqueue(part);
    },
  }, { highWaterMark: 0 });
}
