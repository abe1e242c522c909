import assert from "node:assert/strict";
import { readChunk } from "./read_chunk.ts";
import { ChatCompletionChunkSchema } from "./response_schemas.ts";

const RECORDED = new URL("../../../shared/fixtures/recorded/openai-chat/", import.meta.url);

/** Every chunk of the recorded chat streams (one JSON payload per line). */
async function recordedChunks(): Promise<unknown[]> {
  const chunks: unknown[] = [];
  for await (const entry of Deno.readDir(RECORDED)) {
    if (!entry.name.endsWith(".chunks.txt")) continue;
    const text = await Deno.readTextFile(new URL(entry.name, RECORDED));
    for (const line of text.split("\n")) {
      const data = (line.startsWith("data:") ? line.slice(5) : line).trim();
      if (data === "" || data === "[DONE]") continue;
      try {
        chunks.push(JSON.parse(data));
      } catch {
        // A malformed line in a fixture is a decoder test's business, not this one's.
      }
    }
  }
  return chunks;
}

const VALID = {
  id: "c",
  created: 1,
  model: "m",
  choices: [{
    index: 0,
    delta: {
      role: "assistant",
      content: "hi",
      tool_calls: [{
        index: 0,
        id: "t",
        type: "function",
        function: { name: "f", arguments: "{" },
      }],
    },
    finish_reason: null,
  }],
  usage: { prompt_tokens: 1, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 0 } },
};

/** Variants of VALID that break one rule each, or stay valid in a way the schema allows. */
const VARIANTS: unknown[] = [
  VALID,
  {},
  { choices: null, usage: null, error: { message: "x" } },
  { id: 5 },
  { created: "1" },
  { choices: {} },
  { choices: [null] },
  { choices: [{ index: "0" }] },
  { choices: [{ delta: [] }] },
  { choices: [{ delta: { content: 5 } }] },
  { choices: [{ delta: { content: [{ type: "text", text: "a" }, { type: "text" }] } }] },
  { choices: [{ delta: { content: [{ text: "a" }] } }] },
  { choices: [{ delta: { content: [{ type: "text", text: 1 }] } }] },
  { choices: [{ delta: { reasoning: { summary: "object reasoning is ignored" } } }] },
  { choices: [{ delta: { reasoning_content: 1 } }] },
  { choices: [{ delta: { tool_calls: [{ function: { arguments: 1 } }] } }] },
  { choices: [{ delta: { tool_calls: [{ custom: { input: "x" } }] } }] },
  { choices: [{ delta: { tool_calls: {} } }] },
  { choices: [{ finish_reason: 1 }] },
  { usage: { prompt_tokens: "1" } },
  { usage: { completion_tokens_details: { reasoning_tokens: null } } },
  { usage: { prompt_tokens_details: [] } },
  { usage: { prompt_cache_hit_tokens: 3 } },
  [],
  null,
  "chunk",
  { extra: { fields: ["pass"] }, choices: [{ delta: { future_field: 1 } }] },
];

Deno.test("readChunk agrees with ChatCompletionChunkSchema on recorded and crafted chunks", async () => {
  const samples = [...await recordedChunks(), ...VARIANTS];
  assert.ok(samples.length > VARIANTS.length, "the recorded chat streams were read");
  for (const sample of samples) {
    const expected = ChatCompletionChunkSchema.safeParse(sample).success;
    assert.equal(readChunk(sample) !== null, expected, JSON.stringify(sample).slice(0, 200));
  }
});

Deno.test("readChunk hands back the chunk itself", () => {
  assert.equal(readChunk(VALID), VALID);
});
