/**
 * What the benchmark's fake upstream answers: one short text reply in the three wires, streamed
 * and not, in the shapes of the recorded provider transcripts (fixtures/recorded/ in the shared
 * material: `openai-text`, `anthropic-text`, `openai-shell-local-multiturn`). Each stream is a
 * list of complete SSE events, so the server can write them one by one.
 * @module
 */

/** The reply's text, split the way a model streams it: 20 deltas. */
export const REPLY_DELTAS: readonly string[] = [
  "Gate",
  "house",
  " is",
  " an",
  " LLM",
  " gateway",
  ":",
  " one",
  " address",
  ",",
  " one",
  " key",
  ",",
  " every",
  " model",
  " on",
  " every",
  " protocol",
  ".",
  " Done",
];

const REPLY_TEXT = REPLY_DELTAS.join("");
const INPUT_TOKENS = 412;
const OUTPUT_TOKENS = REPLY_DELTAS.length;
const CREATED = 1_770_933_892;

const chatId = "chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0";
const messageId = "msg_01QC4g3HwBThD4BaNtBckFDJ";
const responseId = "resp_0b0392bd3bb81302006994e83ac0ac819396f3f5aa5f239e03";
const outputItemId = "msg_0b0392bd3bb81302006994e83b32748193aa637cdb31658266";

const data = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const typed = (payload: { type: string } & Record<string, unknown>) =>
  `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;

/** Chat Completions usage, as OpenAI reports it. */
function chatUsage() {
  return {
    prompt_tokens: INPUT_TOKENS,
    completion_tokens: OUTPUT_TOKENS,
    total_tokens: INPUT_TOKENS + OUTPUT_TOKENS,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** The chat stream: a role chunk, one chunk per delta, the finish chunk, the usage chunk when
 * the request asked for it (`stream_options.include_usage`), then `[DONE]`. */
export function chatStream(model: string, includeUsage: boolean): string[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id: chatId,
    object: "chat.completion.chunk",
    created: CREATED,
    model,
    service_tier: "default",
    system_fingerprint: "fp_de604bd877",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
    obfuscation: "Qup1BsQ3",
  });
  const events = [data(chunk({ role: "assistant", content: "", refusal: null }, null))];
  for (const text of REPLY_DELTAS) events.push(data(chunk({ content: text }, null)));
  events.push(data(chunk({}, "stop")));
  if (includeUsage) {
    events.push(data({
      id: chatId,
      object: "chat.completion.chunk",
      created: CREATED,
      model,
      service_tier: "default",
      system_fingerprint: "fp_de604bd877",
      choices: [],
      usage: chatUsage(),
      obfuscation: "h9RiQLL",
    }));
  }
  events.push("data: [DONE]\n\n");
  return events;
}

/** The non-streamed chat completion. */
export function chatBody(model: string): string {
  return JSON.stringify({
    id: chatId,
    object: "chat.completion",
    created: CREATED,
    model,
    choices: [{
      index: 0,
      message: { role: "assistant", content: REPLY_TEXT, refusal: null, annotations: [] },
      logprobs: null,
      finish_reason: "stop",
    }],
    usage: chatUsage(),
    service_tier: "default",
    system_fingerprint: "fp_de604bd877",
  });
}

const anthropicUsage = {
  input_tokens: INPUT_TOKENS,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  service_tier: "standard",
  inference_geo: "not_available",
};

/** The Messages stream: start, one text block with a ping, its deltas, delta with usage, stop. */
export function messagesStream(model: string): string[] {
  const events = [
    typed({
      type: "message_start",
      message: {
        model,
        id: messageId,
        type: "message",
        role: "assistant",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...anthropicUsage, output_tokens: 1 },
      },
    }),
    typed({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    typed({ type: "ping" }),
  ];
  for (const text of REPLY_DELTAS) {
    events.push(
      typed({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }),
    );
  }
  events.push(
    typed({ type: "content_block_stop", index: 0 }),
    typed({
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: {
        input_tokens: INPUT_TOKENS,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: OUTPUT_TOKENS,
      },
    }),
    typed({ type: "message_stop" }),
  );
  return events;
}

/** The non-streamed message. */
export function messagesBody(model: string): string {
  return JSON.stringify({
    model,
    id: messageId,
    type: "message",
    role: "assistant",
    content: [{ type: "text", text: REPLY_TEXT }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { ...anthropicUsage, output_tokens: OUTPUT_TOKENS },
  });
}

const outputText = (text: string) => ({ type: "output_text", annotations: [], logprobs: [], text });
const messageItem = (status: string, content: unknown[]) => ({
  id: outputItemId,
  type: "message",
  status,
  content,
  role: "assistant",
});

/** A Responses `response` object in the recorded shape. */
function responseObject(model: string, completed: boolean): Record<string, unknown> {
  return {
    id: responseId,
    object: "response",
    created_at: CREATED,
    status: completed ? "completed" : "in_progress",
    background: false,
    completed_at: completed ? CREATED + 1 : null,
    error: null,
    frequency_penalty: 0,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    max_tool_calls: null,
    model,
    output: completed ? [messageItem("completed", [outputText(REPLY_TEXT)])] : [],
    parallel_tool_calls: true,
    presence_penalty: 0,
    previous_response_id: null,
    prompt_cache_key: null,
    prompt_cache_retention: null,
    reasoning: { effort: "none", summary: null },
    safety_identifier: null,
    service_tier: completed ? "default" : "auto",
    store: false,
    temperature: 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools: [],
    top_logprobs: 0,
    top_p: 0.98,
    truncation: "disabled",
    usage: completed
      ? {
        input_tokens: INPUT_TOKENS,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: OUTPUT_TOKENS,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: INPUT_TOKENS + OUTPUT_TOKENS,
      }
      : null,
    user: null,
    metadata: {},
  };
}

/** The Responses stream: created, in progress, one message item with its text deltas, done
 * events, completed — each with its `sequence_number`. */
export function responsesStream(model: string): string[] {
  let sequence = 0;
  const next = (payload: { type: string } & Record<string, unknown>) =>
    typed({ ...payload, sequence_number: sequence++ });
  const part = { content_index: 0, item_id: outputItemId, output_index: 0 };
  const events = [
    next({ type: "response.created", response: responseObject(model, false) }),
    next({ type: "response.in_progress", response: responseObject(model, false) }),
    next({
      type: "response.output_item.added",
      item: messageItem("in_progress", []),
      output_index: 0,
    }),
    next({ type: "response.content_part.added", ...part, part: outputText("") }),
  ];
  for (const delta of REPLY_DELTAS) {
    events.push(next({
      type: "response.output_text.delta",
      ...part,
      delta,
      logprobs: [],
      obfuscation: "mMOcmYeOZsxvKYe",
    }));
  }
  events.push(
    next({ type: "response.output_text.done", ...part, logprobs: [], text: REPLY_TEXT }),
    next({ type: "response.content_part.done", ...part, part: outputText(REPLY_TEXT) }),
    next({
      type: "response.output_item.done",
      item: messageItem("completed", [outputText(REPLY_TEXT)]),
      output_index: 0,
    }),
    next({ type: "response.completed", response: responseObject(model, true) }),
  );
  return events;
}

/** The non-streamed response. */
export function responsesBody(model: string): string {
  return JSON.stringify(responseObject(model, true));
}
