/**
 * Round trips of the recorded OpenAI streams and bodies: upstream decode → client encode must
 * give a valid Responses stream (event order, indices, one terminal event) carrying the same
 * content, which the OpenAI SDK accepts.
 */
import assert from "node:assert/strict";
import OpenAI from "openai";
import { decodeRequest } from "./decode_request.ts";
import { decodeResponse } from "./decode_response.ts";
import { decodeStream } from "./decode_stream.ts";
import { encodeResponse } from "./encode_response.ts";
import { encodeStream } from "./encode_stream.ts";
import { responsesErrorOf } from "./error_codes.ts";
import {
  assertValidStream,
  collapse,
  coreRequest,
  encodeContext,
  fixtureJson,
  fixtureStreams,
  parseEvents,
  pipe,
  STREAM_FIXTURES,
} from "./test_util.ts";

type Json = Record<string, unknown>;

const JSON_FIXTURES = STREAM_FIXTURES;

/** Text, calls and reasoning summaries of a list of output items. */
function contentOf(output: Json[]) {
  return {
    texts: output.filter((o) => o.type === "message").flatMap((o) =>
      (o.content as Json[]).map((c) => c.text)
    ),
    calls: output.filter((o) => String(o.type).endsWith("_call")).map((o) => ({
      type: o.type,
      call_id: o.call_id,
      name: o.name,
      payload: o.arguments ?? o.input ?? JSON.stringify((o.action as Json).command),
    })),
    summaries: output.filter((o) => o.type === "reasoning").map((o) =>
      (o.summary as Json[]).map((s) => s.text).join("\n\n")
    ),
  };
}

async function sdkAccepts(bytes: Uint8Array[]) {
  const client = new OpenAI({
    apiKey: "test",
    baseURL: "http://gatehouse.test/v1",
    fetch: () => Promise.resolve(new Response(ReadableStream.from(bytes))),
  });
  return await client.responses.stream({ model: "m", input: "x" }).finalResponse();
}

Deno.test("round trip: every recorded stream re-encodes as a valid Responses stream", async () => {
  const request = coreRequest({ reasoning: { mode: "adaptive", includeEncrypted: true } });
  for (const name of STREAM_FIXTURES) {
    for (const upstream of await fixtureStreams(name)) {
      const parts = await pipe(upstream, decodeStream("openai", request));
      const bytes = await pipe(parts, encodeStream(encodeContext(request)));
      const events = await parseEvents(bytes);
      assertValidStream(events);
      const last = events.at(-1) as Json;
      const response = last.response as Json;
      const decoded = collapse(parts);
      if (decoded.error) {
        assert.equal(last.type, "response.failed", name);
        assert.equal((response.error as Json).code, responsesErrorOf(decoded.error.error).code);
        continue;
      }
      assert.equal(last.type, "response.completed", name);
      const original = upstream.map((e) => JSON.parse(e.data) as Json).find((e) =>
        e.type === "response.completed"
      )?.response as Json;
      const items = upstream.flatMap((e) => {
        const d = JSON.parse(e.data) as Json;
        return d.type === "response.output_item.done" ? [d.item as Json] : [];
      }).filter((i) =>
        !(i.type === "reasoning" && !i.encrypted_content && !(i.summary as []).length)
      );
      assert.deepEqual(contentOf(response.output as Json[]), contentOf(items), name);
      assert.deepEqual(response.usage, original.usage, `${name}: usage`);
      const sdk = await sdkAccepts(bytes);
      assert.equal(sdk.status, "completed");
      assert.deepEqual(contentOf(sdk.output as unknown as Json[]), contentOf(items));
    }
  }
});

Deno.test("round trip: encrypted reasoning survives for a client that asked for it", async () => {
  const [first] = await fixtureStreams("openai-reasoning-encrypted-content.1");
  const request = coreRequest({ reasoning: { mode: "adaptive", includeEncrypted: true } });
  const parts = await pipe(first ?? [], decodeStream("openai", request));
  const events = await parseEvents(await pipe(parts, encodeStream(encodeContext(request))));
  const done = events.find((e) =>
    e.type === "response.output_item.done" && (e.item as Json).type === "reasoning"
  );
  const upstreamDone = (first ?? []).map((e) => JSON.parse(e.data) as Json).find((e) =>
    e.type === "response.output_item.done"
  );
  assert.equal(
    (done?.item as Json).encrypted_content,
    (upstreamDone?.item as Json).encrypted_content,
  );
  assert.equal((done?.item as Json).id, (upstreamDone?.item as Json).id);
});

Deno.test("round trip: every recorded body decodes and re-encodes", async () => {
  for (const name of JSON_FIXTURES) {
    const body = await fixtureJson(name) as Json;
    if (name === "openai-error.1") {
      assert.ok("error" in body, "the error fixture is an error body (see decode_error_test)");
      continue;
    }
    const request = coreRequest({ stream: false });
    const decoded = decodeResponse("openai", body, request).value;
    const encoded = encodeResponse(decoded, encodeContext(request)).value;
    assert.equal(encoded.object, "response");
    assert.equal(encoded.status, body.status);
    assert.deepEqual(encoded.usage, body.usage, `${name}: usage`);
    if (name.startsWith("parallel")) {
      assert.deepEqual((encoded.output as unknown as Json[]).map((o) => o.name), [
        "weather",
        "cityAttractions",
      ]);
      continue;
    }
    const items = (body.output as Json[]).filter((i) =>
      !(i.type === "reasoning" && !i.encrypted_content && !(i.summary as []).length)
    );
    assert.deepEqual(contentOf(encoded.output as unknown as Json[]), contentOf(items), name);
  }
});

Deno.test("round trip: namespace and custom tools keep the client's shape through an upstream", async () => {
  const { value: request } = decodeRequest({
    model: "gpt-5",
    input: "search the docs",
    tools: [
      {
        type: "namespace",
        name: "mcp__docs__",
        description: "Docs server",
        tools: [{ type: "function", name: "search", parameters: { type: "object" } }],
      },
      { type: "custom", name: "apply_patch", description: "patch", format: { type: "text" } },
    ],
  });
  assert.deepEqual(request.tools.map((t) => [t.type, t.name]), [
    ["function", "mcp__docs__search"],
    ["custom", "apply_patch"],
  ]);
  // What an upstream that saw the flattened tools streams back.
  const upstream = [
    { type: "response.created", response: { id: "resp_u", model: "gpt-5", created_at: 1 } },
    {
      type: "response.output_item.added",
      output_index: 0,
      item: {
        type: "function_call",
        id: "fc_1",
        call_id: "c1",
        name: "mcp__docs__search",
        arguments: "",
      },
    },
    { type: "response.function_call_arguments.delta", output_index: 0, delta: '{"q":"x"}' },
    {
      type: "response.output_item.done",
      output_index: 0,
      item: {
        type: "function_call",
        id: "fc_1",
        call_id: "c1",
        name: "mcp__docs__search",
        arguments: '{"q":"x"}',
      },
    },
    {
      type: "response.output_item.added",
      output_index: 1,
      item: {
        type: "custom_tool_call",
        id: "ctc_1",
        call_id: "c2",
        name: "apply_patch",
        input: "",
      },
    },
    { type: "response.custom_tool_call_input.delta", output_index: 1, delta: "*** Begin Patch" },
    {
      type: "response.output_item.done",
      output_index: 1,
      item: {
        type: "custom_tool_call",
        id: "ctc_1",
        call_id: "c2",
        name: "apply_patch",
        input: "*** Begin Patch",
      },
    },
    { type: "response.completed", response: { status: "completed", usage: null } },
  ].map((d) => ({ event: d.type, data: JSON.stringify(d) }));
  const parts = await pipe(upstream, decodeStream("openai", request));
  const events = await parseEvents(await pipe(parts, encodeStream(encodeContext(request))));
  assertValidStream(events);
  const done = events.filter((e) => e.type === "response.output_item.done").map((e) => e.item);
  assert.deepEqual(done, [
    {
      type: "function_call",
      id: "fc_1",
      call_id: "c1",
      name: "search",
      arguments: '{"q":"x"}',
      status: "completed",
      namespace: "mcp__docs__",
    },
    {
      type: "custom_tool_call",
      id: "ctc_1",
      call_id: "c2",
      name: "apply_patch",
      input: "*** Begin Patch",
      status: "completed",
    },
  ]);
  const completed = events.at(-1)?.response as Json;
  assert.deepEqual(completed.tools, [
    {
      type: "namespace",
      name: "mcp__docs__",
      tools: [{
        type: "function",
        name: "search",
        description: null,
        parameters: { type: "object" },
        strict: null,
      }],
    },
    { type: "custom", name: "apply_patch", description: "patch", format: { type: "text" } },
  ]);
});
