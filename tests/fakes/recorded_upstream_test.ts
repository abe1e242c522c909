import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import {
  fixtureKinds,
  isJsonLine,
  listFixtures,
  loadChunks,
  loadJson,
  splitStreams,
} from "./fixtures.ts";
import { startRecordedUpstream } from "./recorded_upstream.ts";

type Json = Record<string, unknown>;

function parseLines(lines: readonly string[]): Json[] {
  return lines.map((line) => JSON.parse(line) as Json);
}

/** Fields the SDK's response parser adds (`parsed_arguments`, `parsed`); the wire has none. */
const SDK_ADDED = new Set(["parsed_arguments", "parsed"]);

function wireOutput(output: unknown): unknown {
  return JSON.parse(JSON.stringify(output), (key, value) => SDK_ADDED.has(key) ? undefined : value);
}

function anthropicClient(url: string): Anthropic {
  return new Anthropic({ baseURL: url, apiKey: "x", maxRetries: 0 });
}

function openaiClient(url: string): OpenAI {
  // logLevel "off": the SDK logs to the console before rejecting a malformed recorded line.
  return new OpenAI({ baseURL: url + "/v1", apiKey: "x", maxRetries: 0, logLevel: "off" });
}

/** What an Anthropic stream adds up to, computed from its recorded events. */
function anthropicExpectation(events: readonly Json[]) {
  const start = events.find((e) => e.type === "message_start")?.message as Json;
  const delta = events.findLast((e) => e.type === "message_delta") as Json;
  const text = events
    .map((e) => (e.delta as Json | undefined)?.text)
    .filter((t): t is string => typeof t === "string")
    .join("");
  return { id: start.id, stopReason: (delta.delta as Json).stop_reason, text };
}

Deno.test("recorded anthropic-messages: every fixture through the Anthropic SDK", async () => {
  const upstream = startRecordedUpstream();
  const client = anthropicClient(upstream.url);
  try {
    const names = await listFixtures("anthropic-messages");
    assert.ok(names.length >= 7);
    for (const name of names) {
      upstream.use({ folder: "anthropic-messages", name });
      const kinds = await fixtureKinds("anthropic-messages", name);
      const params = {
        model: "claude-test",
        max_tokens: 64,
        messages: [{ role: "user" as const, content: "hi" }],
      };
      if (kinds.chunks) {
        const expected = anthropicExpectation(
          parseLines(await loadChunks("anthropic-messages", name)),
        );
        const message = await client.messages.stream(params).finalMessage();
        assert.equal(message.id, expected.id, name);
        assert.equal(message.stop_reason, expected.stopReason, name);
        const text = message.content.map((b) => b.type === "text" ? b.text : "").join("");
        assert.equal(text, expected.text, name);
      }
      if (kinds.json) {
        const message = await client.messages.create(params);
        assert.deepEqual(
          JSON.parse(JSON.stringify(message)),
          await loadJson("anthropic-messages", name),
          name,
        );
      }
    }
    assert.ok(upstream.requests.every((r) => r.path === "/v1/messages"));
  } finally {
    await upstream.close();
  }
});

/** What a chat stream adds up to, computed from its recorded chunks. */
function chatExpectation(chunks: readonly Json[]) {
  let content = "";
  let finishReason: unknown = null;
  const calls = new Map<number, { id?: string; name: string; arguments: string }>();
  for (const chunk of chunks) {
    for (const choice of (chunk.choices as Json[])) {
      const delta = choice.delta as Json;
      if (typeof delta.content === "string") content += delta.content;
      for (const call of (delta.tool_calls as Json[] | undefined) ?? []) {
        const fn = call.function as Json;
        const entry = calls.get(call.index as number) ?? { name: "", arguments: "" };
        if (typeof call.id === "string") entry.id = call.id;
        if (typeof fn.name === "string") entry.name += fn.name;
        if (typeof fn.arguments === "string") entry.arguments += fn.arguments;
        calls.set(call.index as number, entry);
      }
      if (choice.finish_reason != null) finishReason = choice.finish_reason;
    }
  }
  return { id: chunks[0]?.id, content, finishReason, calls: [...calls.values()] };
}

Deno.test("recorded openai-chat: every fixture through the OpenAI SDK", async () => {
  const upstream = startRecordedUpstream();
  const client = openaiClient(upstream.url);
  try {
    const names = await listFixtures("openai-chat");
    assert.ok(names.length >= 3);
    for (const name of names) {
      upstream.use({ folder: "openai-chat", name });
      const params = { model: "gpt-test", messages: [{ role: "user" as const, content: "hi" }] };
      const expected = chatExpectation(parseLines(await loadChunks("openai-chat", name)));
      const completion = await client.chat.completions
        .stream({ ...params, stream_options: { include_usage: true } })
        .finalChatCompletion();
      assert.equal(completion.id, expected.id, name);
      const choice = completion.choices[0];
      assert.ok(choice, name);
      assert.equal(choice.finish_reason, expected.finishReason, name);
      assert.equal(choice.message.content ?? "", expected.content, name);
      assert.deepEqual(
        (choice.message.tool_calls ?? []).map((c) =>
          c.type === "function"
            ? { id: c.id, name: c.function.name, arguments: c.function.arguments }
            : c
        ),
        expected.calls,
        name,
      );
      const body = await client.chat.completions.create(params);
      assert.deepEqual(JSON.parse(JSON.stringify(body)), await loadJson("openai-chat", name), name);
    }
    assert.ok(upstream.requests.every((r) => r.path === "/v1/chat/completions"));
  } finally {
    await upstream.close();
  }
});

Deno.test("recorded openai-responses: every fixture and stream part through the OpenAI SDK", async () => {
  const upstream = startRecordedUpstream();
  const client = openaiClient(upstream.url);
  try {
    const names = await listFixtures("openai-responses");
    assert.ok(names.length >= 6);
    for (const name of names) {
      const parts = splitStreams(await loadChunks("openai-responses", name));
      for (const [part, lines] of parts.entries()) {
        upstream.use({ folder: "openai-responses", name, part });
        const label = `${name}#${part}`;
        const run = client.responses.stream({ model: "gpt-test", input: "hi" }).finalResponse();
        if (!lines.every(isJsonLine)) {
          // Recorded as is: two lines of this fixture lack their closing brace.
          await assert.rejects(run, /malformed server-sent event JSON/, label);
          continue;
        }
        const events = parseLines(lines);
        const error = events.find((e) => e.type === "error");
        if (error) {
          await assert.rejects(run, (e: unknown) => {
            assert.ok(e instanceof OpenAI.APIError, label);
            assert.equal(e.code, (error.error as Json).code, label);
            return true;
          });
          continue;
        }
        const completed = events.find((e) => e.type === "response.completed")?.response as Json;
        const response = await run;
        assert.equal(response.id, completed.id, label);
        assert.equal(response.status, "completed", label);
        assert.deepEqual(wireOutput(response.output), completed.output, label);
      }
      const json = await loadJson("openai-responses", name) as Json;
      const create = client.responses.create({ model: "gpt-test", input: "hi" });
      if (json.object !== "response") {
        await assert.rejects(create, (e: unknown) => {
          assert.ok(e instanceof OpenAI.APIError, name);
          assert.equal(e.status, 429, name);
          return true;
        });
      } else {
        const response = await create;
        assert.equal(response.id, json.id, name);
        assert.deepEqual(wireOutput(response.output), json.output, name);
      }
    }
    assert.ok(upstream.requests.every((r) => r.path === "/v1/responses"));
  } finally {
    await upstream.close();
  }
});

Deno.test("recorded openai-images: the image body and the 400 error body", async () => {
  const upstream = startRecordedUpstream();
  const client = openaiClient(upstream.url);
  try {
    assert.deepEqual(await listFixtures("openai-images"), [
      "gpt-image-response-format-error",
      "openai-image",
    ]);
    upstream.use({ folder: "openai-images", name: "openai-image" });
    const image = await client.images.generate({ model: "gpt-image-1", prompt: "an otter" });
    assert.deepEqual(
      JSON.parse(JSON.stringify(image)),
      await loadJson("openai-images", "openai-image"),
    );
    upstream.use({ folder: "openai-images", name: "gpt-image-response-format-error" });
    await assert.rejects(
      client.images.generate({ model: "gpt-image-1", prompt: "an otter" }),
      (e: unknown) => {
        assert.ok(e instanceof OpenAI.APIError);
        assert.equal(e.status, 400);
        assert.equal(e.code, "unknown_parameter");
        return true;
      },
    );
    assert.ok(upstream.requests.every((r) => r.path === "/v1/images/generations"));
  } finally {
    await upstream.close();
  }
});
