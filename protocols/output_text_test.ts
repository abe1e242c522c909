import assert from "node:assert/strict";
import { chunkType, fixtureKinds, listFixtures, loadChunks } from "../tests/fakes/fixtures.ts";
import {
  outputTextOfEvent as chat,
  outputTextOfRun as chatRun,
} from "./openai_chat/output_text.ts";
import {
  outputTextOfEvent as responses,
  outputTextOfRun as responsesRun,
} from "./openai_responses/output_text.ts";
import {
  outputTextOfEvent as messages,
  outputTextOfRun as messagesRun,
} from "./anthropic_messages/output_text.ts";
import { type RunText, runText } from "./output_scan.ts";

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

/** Each wire's two readers: a run of raw events, and one parsed event. */
const WIRES = [
  { folder: "openai-chat", named: false, run: chatRun, event: chat },
  { folder: "anthropic-messages", named: true, run: messagesRun, event: messages },
  { folder: "openai-responses", named: true, run: responsesRun, event: responses },
] as const;

/** The text of every piece the run scan finds in `events` read `perRun` events at a time. */
function scanned(run: (text: string, into: RunText) => boolean, events: string[], perRun: number) {
  const into = runText();
  let text = "";
  for (let i = 0; i < events.length; i += perRun) {
    into.count = 0;
    assert.ok(run(events.slice(i, i + perRun).join(""), into), "the scan reads the run");
    text += into.texts.slice(0, into.count).join("");
  }
  return text;
}

for (const wire of WIRES) {
  Deno.test(`${wire.folder}: scanning runs of recorded events finds what parsing each finds`, async () => {
    for (const name of await listFixtures(wire.folder)) {
      if (!(await fixtureKinds(wire.folder, name)).chunks) continue;
      const lines = await loadChunks(wire.folder, name);
      const events = lines.map((line) =>
        wire.named ? `event: ${chunkType(line)}\ndata: ${line}\n\n` : `data: ${line}\n\n`
      );
      const parsed = lines.map((line, i) =>
        wire.event(wire.named ? { event: chunkType(lines[i]!), data: line } : { data: line })
      ).join("");
      for (const perRun of [1, 3, events.length]) {
        assert.equal(scanned(wire.run, events, perRun), parsed, `${name}, ${perRun} a run`);
      }
    }
  });
}

Deno.test("chat runs: several choices, tool arguments with escapes, usage and [DONE] chunks", () => {
  const data = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
  const run = data({ choices: [{ index: 0, delta: { role: "assistant", content: "" } }] }) +
    data({
      choices: [
        { index: 0, delta: { content: "Hé 😀", reasoning_content: '"q"' } },
        { index: 1, delta: { tool_calls: [{ index: 0, function: { arguments: '{"a":"\\n"}' } }] } },
      ],
    }) +
    data({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } }) + "data: [DONE]\n\n";
  const into = runText();
  assert.ok(chatRun(run, into));
  assert.deepEqual(into.texts.slice(0, into.count), ["Hé 😀", '"q"', '{"a":"\\n"}']);
});

Deno.test("Messages and Responses runs: only delta events count; a nameless event gives up", () => {
  const into = runText();
  const messageDelta = 'event: message_delta\ndata: {"type":"message_delta","delta":' +
    '{"stop_reason":"end_turn","text":"no"},"usage":{"output_tokens":3}}\n\n';
  assert.ok(messagesRun(messageDelta, into));
  assert.equal(into.count, 0, "message_delta's delta is not text");
  const audio =
    'event: response.audio.delta\ndata: {"type":"response.audio.delta","delta":"QUJD"}\n\n';
  assert.ok(responsesRun(audio, into));
  assert.equal(into.count, 0, "audio is not text");
  const nameless = 'data: {"type":"response.output_text.delta","delta":"hi"}\n\n';
  assert.equal(responsesRun(nameless, into), false, "parsed event by event instead");
});
