import assert from "node:assert/strict";
import { decodeRequest } from "./decode_request.ts";
import { echoTools, responseObject } from "./response_object.ts";
import { coreRequest, encodeContext } from "./test_util.ts";

Deno.test("responseObject: echoes the request fields SDKs read", () => {
  const { value: request } = decodeRequest({
    model: "m",
    instructions: "be nice",
    input: "x",
    tools: [
      {
        type: "function",
        name: "f",
        description: "d",
        parameters: { type: "object" },
        strict: true,
      },
      { type: "web_search" },
    ],
    tool_choice: { type: "function", name: "f" },
    parallel_tool_calls: false,
    reasoning: { effort: "high", summary: "auto" },
    text: { format: { type: "json_object" }, verbosity: "low" },
    temperature: 0.3,
    top_p: 0.5,
    store: false,
    user: "u",
    metadata: { a: "b" },
    prompt_cache_key: "k",
  });
  const body = responseObject(encodeContext(request), {
    id: "resp_1",
    createdAt: 7,
    status: "in_progress",
    output: [],
    usage: null,
  });
  assert.deepEqual(body, {
    id: "resp_1",
    object: "response",
    created_at: 7,
    status: "in_progress",
    background: false,
    error: null,
    incomplete_details: null,
    instructions: "be nice",
    max_output_tokens: null,
    model: "client-model",
    output: [],
    parallel_tool_calls: false,
    previous_response_id: null,
    prompt_cache_key: "k",
    reasoning: { effort: "high", summary: "auto" },
    store: false,
    temperature: 0.3,
    text: { format: { type: "json_object" }, verbosity: "low" },
    tool_choice: { type: "function", name: "f" },
    tools: [
      {
        type: "function",
        name: "f",
        description: "d",
        parameters: { type: "object" },
        strict: true,
      },
      { type: "web_search" },
    ],
    top_p: 0.5,
    truncation: "disabled",
    usage: null,
    user: "u",
    metadata: { a: "b" },
  });
});

Deno.test("echoTools: namespaces regrouped, local shell native, Anthropic tools left out", () => {
  const { value: request } = decodeRequest({
    model: "m",
    tools: [
      {
        type: "namespace",
        name: "mcp__a__",
        tools: [{ type: "function", name: "x" }, { type: "custom", name: "y" }],
      },
      { type: "local_shell" },
    ],
  });
  request.tools.push({ type: "builtin", vendor: "anthropic", name: "web_fetch", raw: {} });
  assert.deepEqual(echoTools(request), [
    {
      type: "namespace",
      name: "mcp__a__",
      tools: [
        {
          type: "function",
          name: "x",
          description: null,
          parameters: { type: "object", properties: {} },
          strict: null,
        },
        { type: "custom", name: "y", description: null },
      ],
    },
    { type: "local_shell" },
  ]);
  const defaults = responseObject(encodeContext(coreRequest()), {
    id: "r",
    createdAt: 1,
    status: "failed",
    output: [],
    usage: null,
    error: { code: "server_error", message: "m" },
  });
  assert.equal(defaults.tool_choice, "auto");
  assert.deepEqual(defaults.text, { format: { type: "text" } });
  assert.deepEqual(defaults.error, { code: "server_error", message: "m" });
  assert.equal(defaults.store, true);
});
