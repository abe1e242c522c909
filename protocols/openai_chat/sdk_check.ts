/**
 * Test helper: feeds SSE bytes or a JSON body the gateway produced to the real `openai` SDK, the
 * strictest chat client there is (`chat.completions.stream(...).finalChatCompletion()`).
 * @module
 */
import OpenAI from "openai";
import type { ChatCompletion } from "openai/resources/chat/completions";

function client(response: () => Response): OpenAI {
  return new OpenAI({
    apiKey: "test",
    baseURL: "http://gateway.test/v1",
    maxRetries: 0,
    fetch: () => Promise.resolve(response()),
  });
}

/** The SDK's final completion assembled from a stream of SSE bytes. */
export async function sdkFinalCompletion(
  bytes: Uint8Array[],
  params: { includeUsage?: boolean } = {},
): Promise<ChatCompletion> {
  const sdk = client(() =>
    new Response(ReadableStream.from(bytes), {
      headers: { "content-type": "text/event-stream" },
    })
  );
  const stream = sdk.chat.completions.stream({
    model: "client-model",
    messages: [{ role: "user", content: "hi" }],
    ...(params.includeUsage ? { stream_options: { include_usage: true } } : {}),
  });
  return await stream.finalChatCompletion();
}

/** The SDK's reading of a non-streamed body. */
export async function sdkCompletion(body: unknown): Promise<ChatCompletion> {
  const sdk = client(() =>
    new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } })
  );
  return await sdk.chat.completions.create({
    model: "client-model",
    messages: [{ role: "user", content: "hi" }],
  });
}
