/**
 * What the benchmark sends: one small coding-agent-like conversation (system prompt, three
 * turns, one tool) in each client wire, one chat request at a coding agent's real size
 * (`agent_body.ts`), and the scenarios that combine a route, a body and the targets it runs
 * against.
 * @module
 */
import { agentChatRequest } from "./agent_body.ts";

/** Where a request goes: straight to the fake upstream, through the minimal proxy, through
 * gatehouse — with its unpolicied key (`gatehouse`) or its key with every policy set
 * (`policied`, see `policies.ts`) — or through Portkey's gateway (`portkey.ts`; the JSON
 * passthrough scenarios). */
export type Target = "direct" | "proxy" | "gatehouse" | "policied" | "portkey";

/** One measured request shape. */
export interface Scenario {
  id: string;
  label: string;
  kind: "passthrough" | "translated";
  path: string;
  /** The body for a model id (direct and proxy send the upstream id, gatehouse the public id). */
  body: (model: string) => Record<string, unknown>;
  anthropicHeaders: boolean;
  /** The public model id gatehouse is asked for. */
  model: string;
  /** The id the upstream sees (sent by direct and proxy runs). */
  upstreamModel: string;
  targets: Target[];
  /** For a translated scenario: the passthrough scenario whose upstream call it makes, used as
   * its direct and proxy baseline. */
  baseline?: string;
  /** Text every successful response body contains. */
  expect: string[];
}

const SYSTEM = "You are a careful coding assistant working in a Deno repository. Answer briefly, " +
  "prefer small diffs, and call the read_file tool when you need to see a file.";
const TURNS = [
  "What does the gateway do with a request whose model is not in the catalog?",
  "It answers 404 with a message naming the model and pointing at GET /v1/models.",
  "Good. Summarise what gatehouse is in one sentence.",
] as const;
const TOOL = {
  name: "read_file",
  description: "Read a UTF-8 text file from the repository and return its contents.",
  schema: {
    type: "object",
    properties: {
      path: { type: "string", description: "Path relative to the repository root." },
      start_line: { type: "integer", minimum: 1 },
      end_line: { type: "integer", minimum: 1 },
    },
    required: ["path"],
    additionalProperties: false,
  },
};

/** A Chat Completions request. Streams ask for usage, as the Vercel AI SDK does. */
export function chatRequest(model: string, stream: boolean): Record<string, unknown> {
  return {
    model,
    messages: [
      { role: "system", content: SYSTEM },
      { role: "user", content: TURNS[0] },
      { role: "assistant", content: TURNS[1] },
      { role: "user", content: TURNS[2] },
    ],
    tools: [{
      type: "function",
      function: { name: TOOL.name, description: TOOL.description, parameters: TOOL.schema },
    }],
    max_completion_tokens: 1024,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}

/** An Anthropic Messages request, streamed (what Claude Code sends, in small). */
export function messagesRequest(model: string): Record<string, unknown> {
  return {
    model,
    max_tokens: 1024,
    system: [{ type: "text", text: SYSTEM }],
    messages: [
      { role: "user", content: [{ type: "text", text: TURNS[0] }] },
      { role: "assistant", content: [{ type: "text", text: TURNS[1] }] },
      { role: "user", content: [{ type: "text", text: TURNS[2] }] },
    ],
    tools: [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.schema }],
    stream: true,
  };
}

/** The same Messages request, answered whole. */
export function messagesJsonRequest(model: string): Record<string, unknown> {
  return { ...messagesRequest(model), stream: false };
}

/** An OpenAI Responses request, streamed and not stored (what Codex sends, in small). */
export function responsesRequest(model: string): Record<string, unknown> {
  const message = (role: string, type: string, text: string) => ({
    type: "message",
    role,
    content: [{ type, text }],
  });
  return {
    model,
    instructions: SYSTEM,
    input: [
      message("user", "input_text", TURNS[0]),
      message("assistant", "output_text", TURNS[1]),
      message("user", "input_text", TURNS[2]),
    ],
    tools: [{
      type: "function",
      name: TOOL.name,
      description: TOOL.description,
      parameters: TOOL.schema,
      strict: false,
    }],
    max_output_tokens: 1024,
    store: false,
    stream: true,
  };
}

const ALL: Target[] = ["direct", "proxy", "gatehouse", "policied"];
/** The JSON passthrough scenarios also run through Portkey (its streams fail: `portkey.ts`). */
const WITH_PORTKEY: Target[] = [...ALL, "portkey"];
const CHAT_STREAM_EXPECT = ["chat.completion.chunk", "data: [DONE]", "protocol"];
const MESSAGES_STREAM_EXPECT = ["event: message_stop", "protocol"];
const RESPONSES_STREAM_EXPECT = ["event: response.completed", "protocol"];

/** Every scenario, in run order. */
export const SCENARIOS: Scenario[] = [
  {
    id: "chat-stream",
    label: "chat/completions stream → chat",
    kind: "passthrough",
    path: "/v1/chat/completions",
    body: (model) => chatRequest(model, true),
    anthropicHeaders: false,
    model: "bench-chat",
    upstreamModel: "bench-chat-upstream",
    targets: ALL,
    expect: CHAT_STREAM_EXPECT,
  },
  {
    id: "chat-json",
    label: "chat/completions JSON → chat",
    kind: "passthrough",
    path: "/v1/chat/completions",
    body: (model) => chatRequest(model, false),
    anthropicHeaders: false,
    model: "bench-chat",
    upstreamModel: "bench-chat-upstream",
    targets: WITH_PORTKEY,
    expect: ['"object":"chat.completion"', "protocol"],
  },
  {
    id: "messages-stream",
    label: "messages stream → messages",
    kind: "passthrough",
    path: "/v1/messages",
    body: messagesRequest,
    anthropicHeaders: true,
    model: "bench-claude",
    upstreamModel: "bench-claude-upstream",
    targets: ALL,
    expect: MESSAGES_STREAM_EXPECT,
  },
  {
    id: "messages-json",
    label: "messages JSON → messages",
    kind: "passthrough",
    path: "/v1/messages",
    body: messagesJsonRequest,
    anthropicHeaders: true,
    model: "bench-claude",
    upstreamModel: "bench-claude-upstream",
    targets: WITH_PORTKEY,
    expect: ['"type":"message"', "protocol"],
  },
  {
    id: "responses-stream",
    label: "responses stream → responses",
    kind: "passthrough",
    path: "/v1/responses",
    body: responsesRequest,
    anthropicHeaders: false,
    model: "bench-responses",
    upstreamModel: "bench-responses-upstream",
    targets: ALL,
    expect: RESPONSES_STREAM_EXPECT,
  },
  {
    id: "agent-json",
    label: "chat/completions JSON → chat, 56 kB agent body",
    kind: "passthrough",
    path: "/v1/chat/completions",
    body: agentChatRequest,
    anthropicHeaders: false,
    model: "bench-chat",
    upstreamModel: "bench-chat-upstream",
    targets: ALL,
    expect: ['"object":"chat.completion"', "protocol"],
  },
  {
    id: "messages-to-chat",
    label: "messages stream → chat",
    kind: "translated",
    path: "/v1/messages",
    body: messagesRequest,
    anthropicHeaders: true,
    model: "bench-chat",
    upstreamModel: "bench-chat-upstream",
    targets: ["gatehouse", "policied"],
    baseline: "chat-stream",
    expect: MESSAGES_STREAM_EXPECT,
  },
  {
    id: "messages-json-to-chat",
    label: "messages JSON → chat",
    kind: "translated",
    path: "/v1/messages",
    body: messagesJsonRequest,
    anthropicHeaders: true,
    model: "bench-chat",
    upstreamModel: "bench-chat-upstream",
    targets: ["gatehouse", "policied"],
    baseline: "chat-json",
    expect: ['"type":"message"', "protocol"],
  },
  {
    id: "chat-to-messages",
    label: "chat/completions stream → messages",
    kind: "translated",
    path: "/v1/chat/completions",
    body: (model) => chatRequest(model, true),
    anthropicHeaders: false,
    model: "bench-claude",
    upstreamModel: "bench-claude-upstream",
    targets: ["gatehouse", "policied"],
    baseline: "messages-stream",
    expect: CHAT_STREAM_EXPECT,
  },
  {
    id: "chat-json-to-messages",
    label: "chat/completions JSON → messages",
    kind: "translated",
    path: "/v1/chat/completions",
    body: (model) => chatRequest(model, false),
    anthropicHeaders: false,
    model: "bench-claude",
    upstreamModel: "bench-claude-upstream",
    targets: ["gatehouse", "policied"],
    baseline: "messages-json",
    expect: ['"object":"chat.completion"', "protocol"],
  },
  {
    id: "responses-to-messages",
    label: "responses stream → messages",
    kind: "translated",
    path: "/v1/responses",
    body: responsesRequest,
    anthropicHeaders: false,
    model: "bench-claude",
    upstreamModel: "bench-claude-upstream",
    targets: ["gatehouse", "policied"],
    baseline: "messages-stream",
    expect: RESPONSES_STREAM_EXPECT,
  },
];

/** The request headers for `scenario` carrying `key`. */
export function requestHeaders(scenario: Scenario, key: string): Record<string, string> {
  return scenario.anthropicHeaders
    ? { "content-type": "application/json", "x-api-key": key, "anthropic-version": "2023-06-01" }
    : { "content-type": "application/json", authorization: `Bearer ${key}` };
}

/** One scenario through gatehouse alone (`--profile`, `--gc`): at `concurrency`, with the key
 * of `target` (`gatehouse` or `policied`), for `seconds`; returns the exit code. */
export type FocusedRun = (
  scenario: Scenario,
  seconds: number,
  concurrency: number,
  target: Target,
  generator: "wrk" | "fetch",
) => Promise<number>;
