/**
 * What each recorded transcript answers (text, thinking, tool calls, stop reason, final usage),
 * read from the files themselves, so the translation tests compare against the recordings and
 * never against hand-typed answers. Also the stop-reason tables both directions must follow.
 * @module
 */
import { loadChunks, loadJson } from "../fakes/fixtures.ts";

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  typeof value === "object" && value !== null ? value as Json : {};
const num = (value: unknown): number => typeof value === "number" ? value : 0;
const str = (value: unknown): string => typeof value === "string" ? value : "";

/** A tool call as a transcript records it; `input` is the parsed JSON object. */
export interface RecordedCall {
  id: string;
  name: string;
  input: unknown;
}

/** Everything an Anthropic transcript answers. */
export interface AnthropicFacts {
  id: string;
  /** Text blocks in order (empty ones left out). */
  texts: string[];
  /** Thinking blocks' text in order (empty ones left out). */
  thinking: string[];
  calls: RecordedCall[];
  stopReason: string;
  /** The final value of each usage counter (streams: the latest event that reported it). */
  usage: {
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
    thinking: number;
  };
}

function anthropicUsage(target: AnthropicFacts["usage"], raw: unknown) {
  const u = obj(raw);
  if (typeof u.input_tokens === "number") target.input = u.input_tokens;
  if (typeof u.output_tokens === "number") target.output = u.output_tokens;
  if (typeof u.cache_read_input_tokens === "number") target.cacheRead = u.cache_read_input_tokens;
  if (typeof u.cache_creation_input_tokens === "number") {
    target.cacheWrite = u.cache_creation_input_tokens;
  }
  const thinking = obj(u.output_tokens_details).thinking_tokens;
  if (typeof thinking === "number") target.thinking = thinking;
}

/** Reads `anthropic-messages/<name>` (`.chunks.txt` when `stream`, else `.json`). */
export async function anthropicFacts(name: string, stream: boolean): Promise<AnthropicFacts> {
  const facts: AnthropicFacts = {
    id: "",
    texts: [],
    thinking: [],
    calls: [],
    stopReason: "",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, thinking: 0 },
  };
  if (!stream) {
    const body = obj(await loadJson("anthropic-messages", name));
    facts.id = str(body.id);
    for (const raw of body.content as unknown[]) {
      const block = obj(raw);
      if (block.type === "text" && str(block.text) !== "") facts.texts.push(str(block.text));
      if (block.type === "thinking" && str(block.thinking) !== "") {
        facts.thinking.push(str(block.thinking));
      }
      if (block.type === "tool_use") {
        facts.calls.push({ id: str(block.id), name: str(block.name), input: block.input });
      }
    }
    facts.stopReason = str(body.stop_reason);
    anthropicUsage(facts.usage, body.usage);
    return facts;
  }
  const blocks = new Map<number, { type: string; text: string; call?: RecordedCall }>();
  const order: number[] = [];
  for (const line of await loadChunks("anthropic-messages", name)) {
    const event = obj(JSON.parse(line));
    switch (event.type) {
      case "message_start":
        facts.id = str(obj(event.message).id);
        anthropicUsage(facts.usage, obj(event.message).usage);
        break;
      case "content_block_start": {
        const block = obj(event.content_block);
        const type = str(block.type);
        const entry = {
          type,
          text: str(block.text) + str(block.thinking),
          call: type === "tool_use"
            ? { id: str(block.id), name: str(block.name), input: block.input }
            : undefined,
        };
        blocks.set(num(event.index), entry);
        order.push(num(event.index));
        break;
      }
      case "content_block_delta": {
        const block = blocks.get(num(event.index));
        const delta = obj(event.delta);
        if (block === undefined) break;
        block.text += str(delta.text) + str(delta.thinking) + str(delta.partial_json);
        break;
      }
      case "message_delta":
        facts.stopReason = str(obj(event.delta).stop_reason) || facts.stopReason;
        anthropicUsage(facts.usage, event.usage);
        break;
    }
  }
  for (const index of order) {
    const block = blocks.get(index)!;
    if (block.type === "text" && block.text !== "") facts.texts.push(block.text);
    if (block.type === "thinking" && block.text !== "") facts.thinking.push(block.text);
    if (block.type === "tool_use" && block.call) {
      // A tool without arguments streams only an empty partial_json: its input is the start's.
      if (block.text !== "") block.call.input = JSON.parse(block.text);
      facts.calls.push(block.call);
    }
  }
  return facts;
}

/** A chat tool call as a transcript records it. */
export interface RecordedChatCall {
  id: string;
  name: string;
  arguments: string;
}

/** Everything an OpenAI chat transcript answers. */
export interface ChatFacts {
  id: string;
  text: string;
  reasoning: string;
  calls: RecordedChatCall[];
  finishReason: string;
  usage: { prompt: number; completion: number; total: number; cached: number; reasoning: number };
}

function chatUsage(raw: unknown): ChatFacts["usage"] {
  const u = obj(raw);
  return {
    prompt: num(u.prompt_tokens),
    completion: num(u.completion_tokens),
    total: num(u.total_tokens),
    cached: num(obj(u.prompt_tokens_details).cached_tokens),
    reasoning: num(obj(u.completion_tokens_details).reasoning_tokens),
  };
}

/** Reads `openai-chat/<name>` (`.chunks.txt` when `stream`, else `.json`). */
export async function chatFacts(name: string, stream: boolean): Promise<ChatFacts> {
  if (!stream) {
    const body = obj(await loadJson("openai-chat", name));
    const choice = obj((body.choices as unknown[])[0]);
    const message = obj(choice.message);
    const calls = ((message.tool_calls ?? []) as unknown[]).map((raw) => {
      const call = obj(raw);
      const fn = obj(call.function);
      return { id: str(call.id), name: str(fn.name), arguments: str(fn.arguments) };
    });
    return {
      id: str(body.id),
      text: str(message.content),
      reasoning: str(message.reasoning_content),
      calls,
      finishReason: str(choice.finish_reason),
      usage: chatUsage(body.usage),
    };
  }
  const facts: ChatFacts = {
    id: "",
    text: "",
    reasoning: "",
    calls: [],
    finishReason: "",
    usage: chatUsage(undefined),
  };
  const calls = new Map<number, RecordedChatCall>();
  for (const line of await loadChunks("openai-chat", name)) {
    const chunk = obj(JSON.parse(line));
    facts.id ||= str(chunk.id);
    if (chunk.usage != null) facts.usage = chatUsage(chunk.usage);
    for (const raw of (chunk.choices ?? []) as unknown[]) {
      const choice = obj(raw);
      const delta = obj(choice.delta);
      facts.text += str(delta.content);
      facts.reasoning += str(delta.reasoning_content);
      for (const rawCall of (delta.tool_calls ?? []) as unknown[]) {
        const call = obj(rawCall);
        const fn = obj(call.function);
        const index = num(call.index);
        const known = calls.get(index) ?? { id: "", name: "", arguments: "" };
        known.id ||= str(call.id);
        known.name ||= str(fn.name);
        known.arguments += str(fn.arguments);
        calls.set(index, known);
      }
      if (typeof choice.finish_reason === "string") facts.finishReason = choice.finish_reason;
    }
  }
  facts.calls = [...calls.keys()].sort((a, b) => a - b).map((key) => calls.get(key)!);
  return facts;
}

/** Output tokens including reasoning. xAI leaves reasoning out of `completion_tokens` and counts
 * it only in `total_tokens` (the recorded xai files: prompt + completion + reasoning = total). */
export function chatOutputTokens(usage: ChatFacts["usage"]): number {
  const outside = usage.reasoning > 0 &&
    usage.total === usage.prompt + usage.completion + usage.reasoning;
  return outside ? usage.completion + usage.reasoning : usage.completion;
}

/** The Anthropic `stop_reason` → the chat `finish_reason` a chat client must see. */
export const FINISH_OF_STOP: Readonly<Record<string, string>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  refusal: "content_filter",
};

/** The chat `finish_reason` → the Anthropic `stop_reason` a Messages client must see. */
export const STOP_OF_FINISH: Readonly<Record<string, string>> = {
  stop: "end_turn",
  tool_calls: "tool_use",
  length: "max_tokens",
  content_filter: "refusal",
};
