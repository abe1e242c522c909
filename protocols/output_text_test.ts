import assert from "node:assert/strict";
import { outputTextOfEvent as chat } from "./openai_chat/output_text.ts";
import { outputTextOfEvent as responses } from "./openai_responses/output_text.ts";
import { outputTextOfEvent as messages } from "./anthropic_messages/output_text.ts";

Deno.test("chat chunks: content, reasoning and tool arguments; nothing from other chunks", () => {
  const data = JSON.stringify({
    choices: [{
      delta: {
        content: "Hi",
        reasoning_content: " think",
        tool_calls: [{ function: { arguments: '{"a"' } }],
      },
    }],
  });
  assert.equal(chat({ data }), 'Hi think{"a"');
  assert.equal(chat({ data: "[DONE]" }), "");
  assert.equal(chat({ data: '{"choices":[],"usage":{"prompt_tokens":3}}' }), "");
  assert.equal(chat({ data: '{"delta": broken' }), "");
});

Deno.test("Responses events: the delta of text, reasoning and argument deltas only", () => {
  const event = (type: string, delta: string) => ({
    event: type,
    data: JSON.stringify({ type, delta, sequence_number: 3 }),
  });
  assert.equal(responses(event("response.output_text.delta", "Hello")), "Hello");
  assert.equal(responses(event("response.function_call_arguments.delta", '{"x":')), '{"x":');
  assert.equal(responses(event("response.reasoning_summary_text.delta", "hm")), "hm");
  assert.equal(responses(event("response.output_text.done", "Hello")), "");
  assert.equal(responses({ data: JSON.stringify({ type: "response.created" }) }), "");
});

Deno.test("Messages events: text, thinking and partial JSON of content_block_delta", () => {
  const delta = (d: Record<string, string>) => ({
    event: "content_block_delta",
    data: JSON.stringify({ type: "content_block_delta", index: 0, delta: d }),
  });
  assert.equal(messages(delta({ type: "text_delta", text: "Hi" })), "Hi");
  assert.equal(messages(delta({ type: "thinking_delta", thinking: "so" })), "so");
  assert.equal(messages(delta({ type: "input_json_delta", partial_json: '{"p"' })), '{"p"');
  assert.equal(messages({ event: "message_stop", data: '{"type":"message_stop"}' }), "");
});
