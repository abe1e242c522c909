/**
 * The recorded Anthropic Messages answers (through a Claude model, Anthropic upstream) and Chat
 * Completions answers (through `gpt-5`, whose OpenAI wire is chat) read through `/v1/responses`
 * by `openai`: `responses.stream(...).finalResponse()` and `responses.create`, checking output
 * items (message text, function calls, reasoning summaries, encrypted reasoning only when
 * asked), status and usage against the transcript; and the raw SSE of every stream against
 * the Responses stream rules (`stream_shape.ts`).
 * @module
 */
import assert from "node:assert/strict";
import type { Response as OpenAIResponse } from "openai/resources/responses/responses";
import { startRecordedUpstream } from "../fakes/recorded_upstream.ts";
import { type FixtureFolder, fixtureKinds, listFixtures } from "../fakes/fixtures.ts";
import { recordedAnthropic, recordedChat, type RecordedTurn } from "./recorded_turns.ts";
import { readRawEvents, startRig } from "./rig.ts";
import { checkStreamShape } from "./stream_shape.ts";

const upstream = startRecordedUpstream();
const rig = await startRig(upstream.url);

/** Which catalog model serves each recorded folder, and where its upstream request goes. */
const ROUTES: Array<{
  folder: FixtureFolder;
  model: string;
  upstreamPath: string;
  read: (name: string, stream: boolean) => Promise<RecordedTurn>;
}> = [
  {
    folder: "anthropic-messages",
    model: "claude-sonnet-5",
    upstreamPath: "/v1/messages",
    read: recordedAnthropic,
  },
  {
    folder: "openai-chat",
    model: "gpt-5",
    upstreamPath: "/v1/chat/completions",
    read: recordedChat,
  },
];

function request(model: string, recorded: RecordedTurn, encrypted: boolean) {
  const names = [...new Set(recorded.calls.map((c) => c.name))];
  return {
    model,
    input: "Go ahead.",
    max_output_tokens: 4000,
    ...(names.length > 0
      ? {
        tools: names.map((name) => ({
          type: "function" as const,
          name,
          parameters: { type: "object" },
          strict: false,
        })),
      }
      : {}),
    ...(encrypted ? { include: ["reasoning.encrypted_content" as const] } : {}),
  };
}

type Item = OpenAIResponse["output"][number];

/** Checks a response (SDK result or a raw terminal event's response) against the recording. */
function checkResponse(
  response: Pick<OpenAIResponse, "status" | "output" | "usage" | "model"> & {
    incomplete_details?: { reason?: string } | null;
  },
  recorded: RecordedTurn,
  model: string,
  encrypted: boolean,
) {
  assert.equal(response.model, model);
  if (recorded.stop === "max") {
    assert.equal(response.status, "incomplete");
    assert.equal(response.incomplete_details?.reason, "max_output_tokens");
  } else {
    assert.equal(response.status, "completed");
  }
  const output: Item[] = response.output;
  const text = output.flatMap((item) =>
    item.type === "message"
      ? item.content.flatMap((c) => c.type === "output_text" ? [c.text] : [])
      : []
  ).join("");
  assert.equal(text, recorded.text, "message output_text");
  const reasoning = output.flatMap((item) => item.type === "reasoning" ? [item] : []);
  assert.deepEqual(
    reasoning.map((r) => r.summary.map((s) => s.text).join("\n\n")).filter((t) => t !== ""),
    recorded.reasoning,
    "reasoning summaries",
  );
  assert.equal(
    reasoning.filter((r) => typeof r.encrypted_content === "string" && r.encrypted_content)
      .length,
    encrypted ? recorded.signed : 0,
    "encrypted_content only when included, one per signed thinking block",
  );
  const calls = output.flatMap((item) => item.type === "function_call" ? [item] : []);
  assert.equal(calls.length, recorded.calls.length, "function_call items");
  recorded.calls.forEach((call, i) => {
    const got = calls[i]!;
    assert.equal(got.call_id, call.id);
    assert.equal(got.name, call.name);
    assert.deepEqual(JSON.parse(got.arguments), call.input, `arguments of ${call.name}`);
  });
  assert.equal(
    output.filter((i) => !["message", "reasoning", "function_call"].includes(i.type)).length,
    0,
    "no other output items",
  );
  const u = recorded.usage;
  assert.ok(response.usage, "usage");
  assert.equal(response.usage.input_tokens, u.input, "input_tokens includes cached");
  assert.equal(response.usage.input_tokens_details.cached_tokens, u.cached);
  assert.equal(response.usage.output_tokens, u.output);
  assert.equal(response.usage.output_tokens_details.reasoning_tokens, u.reasoning);
  assert.equal(response.usage.total_tokens, u.input + u.output);
}

function checkUpstream(path: string, stream: boolean) {
  const sent = upstream.requests.at(-1);
  assert.ok(sent, "the upstream received no request");
  assert.equal(sent.path, path);
  assert.equal((sent.body as { stream?: boolean }).stream === true, stream);
}

for (const route of ROUTES) {
  for (const name of await listFixtures(route.folder)) {
    const kinds = await fixtureKinds(route.folder, name);
    const id = `${route.folder}/${name} via ${route.model}`;
    if (kinds.chunks) {
      Deno.test(`responses.stream().finalResponse() reads ${id}`, async () => {
        upstream.use({ folder: route.folder, name, stream: true });
        const recorded = await route.read(name, true);
        const response = await rig.openai.responses
          .stream(request(route.model, recorded, true))
          .finalResponse();
        checkResponse(response, recorded, route.model, true);
        checkUpstream(route.upstreamPath, true);
      });
      Deno.test(`raw /v1/responses SSE of ${id} follows the stream rules`, async () => {
        upstream.use({ folder: route.folder, name, stream: true });
        const recorded = await route.read(name, true);
        const answer = await rig.post("/v1/responses", {
          ...request(route.model, recorded, false),
          stream: true,
        });
        assert.equal(answer.status, 200);
        assert.match(answer.headers.get("content-type") ?? "", /^text\/event-stream/);
        const terminal = checkStreamShape(await readRawEvents(answer));
        checkResponse(terminal as unknown as OpenAIResponse, recorded, route.model, false);
      });
    }
    if (kinds.json) {
      Deno.test(`responses.create reads ${id}`, async () => {
        upstream.use({ folder: route.folder, name, stream: false });
        const recorded = await route.read(name, false);
        const response = await rig.openai.responses.create(
          request(route.model, recorded, true),
        );
        checkResponse(response, recorded, route.model, true);
        checkUpstream(route.upstreamPath, false);
      });
    }
  }
}

Deno.test({
  name: "responses client over Anthropic and chat upstreams: close",
  fn: async () => {
    await rig.close();
    await upstream.close();
  },
});
