import { stepStream } from "../../core/step.ts";
import assert from "node:assert/strict";
import { emptyUsage } from "../../core/response.ts";
import {
  createClientCodec,
  createUpstreamCodec,
  prependHistory,
  previousResponseId,
  RESPONSES_EVENT_TYPES,
  RESPONSES_TERMINAL_EVENTS,
} from "./mod.ts";
import {
  collapse,
  coreRequest,
  encodeContext,
  fixtureJson,
  fixtureStreams,
  pipe,
} from "./test_util.ts";

Deno.test("mod: the client codec decodes and encodes", () => {
  const codec = createClientCodec();
  assert.equal(codec.wire, "openai_responses");
  const { value } = codec.decodeRequest({ model: "m", input: "hi" });
  const body = codec.encodeResponse({
    id: "r",
    model: "m",
    created: 1,
    stopReason: "end_turn",
    usage: emptyUsage(),
    content: [{ type: "text", text: "yo" }],
  }, encodeContext(value)).value as { output: unknown[] };
  assert.equal(body.output.length, 1);
  assert.equal(typeof prependHistory, "function");
  assert.equal(previousResponseId({ previous_response_id: "resp_9" }), "resp_9");
  for (const t of RESPONSES_TERMINAL_EVENTS) assert.ok(RESPONSES_EVENT_TYPES.includes(t));
});

Deno.test("mod: the upstream codec names its provider in errors", async () => {
  const codec = createUpstreamCodec({ providerName: "azure-openai" });
  assert.equal(codec.encodeRequest(coreRequest()).value.path, "/v1/responses");
  const [events] = await fixtureStreams("openai-error.1");
  const got = collapse(await pipe(events ?? [], stepStream(codec.decodeStream(coreRequest()))));
  assert.match(got.error?.error.message ?? "", /^Provider "azure-openai"/);
  const error = codec.decodeError(429, await fixtureJson("openai-error.1"), new Headers());
  assert.match(error.message, /azure-openai/);
  const body = await fixtureJson("openai-custom-tool.1");
  assert.equal(codec.decodeResponse(body, coreRequest()).value.stopReason, "tool_use");
  assert.equal(codec.usageOfBody(body)?.inputTokens, 50);
  assert.equal(codec.usageOfEvent({ event: "response.created", data: "{}" }), null);
});
