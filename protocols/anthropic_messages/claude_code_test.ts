import assert from "node:assert/strict";
import { decodeRequest } from "./decode_request.ts";
import { encodeRequest } from "./encode_request.ts";
import type { WireRequest } from "./wire.ts";

const TOOL_NAMES = [
  "Agent",
  "Bash",
  "Edit",
  "Glob",
  "Grep",
  "NotebookEdit",
  "Read",
  "TodoWrite",
  "WebFetch",
  "WebSearch",
  "Write",
  "ExitPlanMode",
];

/** A request shaped like the ones Claude Code 2.1 sends (see shared/CLIENTS.md). */
function claudeCodeRequest(): Record<string, unknown> {
  return {
    model: "claude-opus-5-5",
    max_tokens: 128000,
    stream: true,
    system: [
      {
        type: "text",
        text: "x-anthropic-billing-header: cc_version=2.1.328; cc_entrypoint=sdk-cli",
      },
      {
        type: "text",
        text: "You are Claude Code, Anthropic's official CLI for Claude.",
        cache_control: { type: "ephemeral", ttl: "1h" },
      },
    ],
    messages: [
      {
        role: "user",
        content: [
          {
            type: "text",
            text: "<system-reminder>As you answer, use the context.</system-reminder>",
          },
          { type: "text", text: "What is in notes.txt?", cache_control: { type: "ephemeral" } },
        ],
      },
      { role: "system", content: "<system-reminder>The date is 2026-08-22.</system-reminder>" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "", signature: "EqQBCkYIBxgCKkB" },
          {
            type: "tool_use",
            id: "toolu_01A",
            name: "Read",
            input: { file_path: "/tmp/notes.txt" },
          },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_01A",
            content: "     1\thello",
            cache_control: { type: "ephemeral" },
          },
        ],
      },
    ],
    tools: TOOL_NAMES.map((name, i) => ({
      name,
      description: `The ${name} tool.`,
      input_schema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: name === "Read" ? { file_path: { type: "string" } } : {},
        additionalProperties: false,
      },
      ...(i === TOOL_NAMES.length - 1 ? { cache_control: { type: "ephemeral" } } : {}),
    })),
    metadata: {
      user_id: JSON.stringify({ device_id: "d1e2", account_uuid: "", session_id: "5f0c" }),
    },
    thinking: { type: "adaptive", display: "omitted" },
    context_management: { edits: [{ type: "clear_thinking_20251015", keep: "all" }] },
    output_config: { effort: "medium" },
  };
}

Deno.test("a Claude Code request decodes with the expected warnings and no error", () => {
  const { value, warnings } = decodeRequest(claudeCodeRequest());
  assert.deepEqual(warnings.map((w) => w.field).sort(), [
    "context_management",
    "messages.3.content.0.cache_control",
    "tools.11.cache_control",
  ]);
  assert.equal(value.model, "claude-opus-5-5");
  assert.equal(value.maxOutputTokens, 128000);
  assert.equal(value.stream, true);
  assert.equal(value.source, "anthropic_messages");
  assert.equal(value.system.length, 2);
  assert.deepEqual(value.system[1]?.cacheControl, { type: "ephemeral", ttl: "1h" });
  assert.deepEqual(value.messages.map((m) => m.role), ["user", "system", "assistant", "tool"]);
  assert.deepEqual(value.messages[1], {
    role: "system",
    content: [{ type: "text", text: "<system-reminder>The date is 2026-08-22.</system-reminder>" }],
  });
  assert.deepEqual(value.messages[2]?.content, [
    { type: "reasoning", text: "", token: { vendor: "anthropic", value: "EqQBCkYIBxgCKkB" } },
    {
      type: "tool_call",
      id: "toolu_01A",
      name: "Read",
      arguments: '{"file_path":"/tmp/notes.txt"}',
      kind: "function",
    },
  ]);
  assert.deepEqual(value.messages[3]?.content, [
    {
      type: "tool_result",
      toolCallId: "toolu_01A",
      content: [{ type: "text", text: "     1\thello" }],
    },
  ]);
  assert.equal(value.tools.length, 12);
  assert.ok(value.tools.every((t) => t.type === "function"));
  assert.deepEqual(value.reasoning, { mode: "adaptive", display: "omitted", effort: "medium" });
  assert.equal(value.user, '{"device_id":"d1e2","account_uuid":"","session_id":"5f0c"}');
});

Deno.test("a Claude Code request re-encodes for Anthropic with the system message in place", () => {
  const { value: core } = decodeRequest(claudeCodeRequest());
  const { value: call, warnings } = encodeRequest(core);
  assert.deepEqual(warnings, []);
  assert.equal(call.path, "/v1/messages");
  const body = call.body as WireRequest;
  assert.equal(body.max_tokens, 128000);
  assert.deepEqual(body.messages.map((m) => m.role), ["user", "system", "assistant", "user"]);
  assert.deepEqual(body.thinking, { type: "adaptive", display: "omitted" });
  assert.deepEqual(body.output_config, { effort: "medium" });
  assert.equal(body.system?.[1]?.cache_control?.ttl, "1h");
  assert.equal(body.tools?.length, 12);
  assert.equal(body.metadata?.user_id, core.user);
  assert.deepEqual(body.messages[3]?.content, [
    {
      type: "tool_result",
      tool_use_id: "toolu_01A",
      content: [{ type: "text", text: "     1\thello" }],
    },
  ]);
});
