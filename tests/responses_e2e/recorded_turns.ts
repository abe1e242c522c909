/**
 * What a recorded Anthropic Messages or Chat Completions answer says, read from the transcript
 * (streams assembled the way each provider's SDK assembles them), in the terms a Responses
 * client should see it in: text, reasoning texts, calls, how it ended, and usage with
 * `input_tokens` counting cached tokens and `output_tokens` counting reasoning tokens.
 * @module
 */
import { loadChunks, loadJson } from "../fakes/fixtures.ts";

/** One recorded answer, as a Responses client should read it. */
export interface RecordedTurn {
  text: string;
  /** One entry per reasoning block (Anthropic thinking, chat `reasoning_content`). */
  reasoning: string[];
  /** Reasoning blocks that carry an opaque continuation (an Anthropic signature). */
  signed: number;
  calls: Array<{ id: string; name: string; input: unknown }>;
  /** How it ended: `max` = cut at the output limit. */
  stop: "end" | "tool" | "max" | "refusal";
  usage: { input: number; cached: number; output: number; reasoning: number };
}

type Obj = Record<string, unknown>;

const obj = (value: unknown): Obj =>
  typeof value === "object" && value !== null ? value as Obj : {};
const list = (value: unknown): Obj[] => (Array.isArray(value) ? value.map(obj) : []);
const str = (value: unknown): string => (typeof value === "string" ? value : "");
const num = (value: unknown): number => (typeof value === "number" ? value : 0);

function parseArguments(text: string): unknown {
  return text.trim() === "" ? {} : JSON.parse(text);
}

function anthropicStop(reason: string): RecordedTurn["stop"] {
  if (reason === "max_tokens") return "max";
  if (reason === "tool_use") return "tool";
  if (reason === "refusal") return "refusal";
  return "end";
}

/** Anthropic usage: `input_tokens` excludes the cache reads and writes. */
function anthropicUsage(u: Obj): RecordedTurn["usage"] {
  const read = num(u.cache_read_input_tokens);
  return {
    input: num(u.input_tokens) + read + num(u.cache_creation_input_tokens),
    cached: read,
    output: num(u.output_tokens),
    reasoning: num(obj(u.output_tokens_details).thinking_tokens),
  };
}

function anthropicTurn(blocks: Obj[], stopReason: string, usage: Obj): RecordedTurn {
  return {
    text: blocks.filter((b) => b.type === "text").map((b) => str(b.text)).join(""),
    reasoning: blocks.filter((b) => b.type === "thinking" && str(b.thinking) !== "").map((b) =>
      str(b.thinking)
    ),
    signed: blocks.filter((b) => b.type === "thinking" && str(b.signature) !== "").length,
    calls: blocks.filter((b) => b.type === "tool_use").map((b) => ({
      id: str(b.id),
      name: str(b.name),
      input: b.input,
    })),
    stop: anthropicStop(stopReason),
    usage: anthropicUsage(usage),
  };
}

/** A recorded Anthropic answer. A stream is assembled as `@anthropic-ai/sdk` does: blocks from
 * their deltas, usage from `message_start` overwritten by what `message_delta` reports. */
export async function recordedAnthropic(name: string, stream: boolean): Promise<RecordedTurn> {
  if (!stream) {
    const body = obj(await loadJson("anthropic-messages", name));
    return anthropicTurn(list(body.content), str(body.stop_reason), obj(body.usage));
  }
  const events = (await loadChunks("anthropic-messages", name)).map((l) => obj(JSON.parse(l)));
  const blocks: Obj[] = [];
  const json = new Map<number, string>();
  let usage: Obj = {};
  let stopReason = "";
  for (const e of events) {
    const index = num(e.index);
    const delta = obj(e.delta);
    if (e.type === "message_start") usage = { ...obj(obj(e.message).usage) };
    else if (e.type === "content_block_start") blocks[index] = { ...obj(e.content_block) };
    else if (e.type === "content_block_delta") {
      const block = blocks[index] ?? {};
      if (delta.type === "text_delta") block.text = str(block.text) + str(delta.text);
      if (delta.type === "thinking_delta") {
        block.thinking = str(block.thinking) + str(delta.thinking);
      }
      if (delta.type === "signature_delta") block.signature = str(delta.signature);
      if (delta.type === "input_json_delta") {
        json.set(index, (json.get(index) ?? "") + str(delta.partial_json));
      }
    } else if (e.type === "message_delta") {
      stopReason = str(delta.stop_reason);
      usage = { ...usage, ...obj(e.usage) };
    }
  }
  for (const [index, text] of json) {
    const block = blocks[index];
    if (block) block.input = parseArguments(text);
  }
  return anthropicTurn(blocks, stopReason, usage);
}

/**
 * Chat usage. `prompt_tokens` includes the cached tokens (DeepSeek also says
 * `prompt_cache_hit_tokens`). xAI quirk (see the xai recordings: 307 + 26 + 227 = 560): its
 * `completion_tokens` leaves the reasoning out, which only `total_tokens` counts; Responses
 * `output_tokens` includes reasoning, so it is added back there.
 */
function chatUsage(u: Obj): RecordedTurn["usage"] {
  const input = num(u.prompt_tokens);
  const completion = num(u.completion_tokens);
  const reasoning = num(obj(u.completion_tokens_details).reasoning_tokens);
  const details = obj(u.prompt_tokens_details);
  const cached = typeof details.cached_tokens === "number"
    ? details.cached_tokens
    : num(u.prompt_cache_hit_tokens);
  const outside = reasoning > 0 && u.total_tokens === input + completion + reasoning;
  return { input, cached, output: outside ? completion + reasoning : completion, reasoning };
}

function chatStop(reason: string): RecordedTurn["stop"] {
  if (reason === "length") return "max";
  if (reason === "tool_calls") return "tool";
  if (reason === "content_filter") return "refusal";
  return "end";
}

/** A recorded chat answer. A stream is assembled as `openai`'s stream helper does: content
 * and reasoning deltas joined, tool calls by `index`, usage from the last chunk with one. */
export async function recordedChat(name: string, stream: boolean): Promise<RecordedTurn> {
  if (!stream) {
    const body = obj(await loadJson("openai-chat", name));
    const choice = obj(list(body.choices)[0]);
    const message = obj(choice.message);
    const reasoning = str(message.reasoning_content);
    return {
      text: str(message.content),
      reasoning: reasoning ? [reasoning] : [],
      signed: 0,
      calls: list(message.tool_calls).map((c) => ({
        id: str(c.id),
        name: str(obj(c.function).name),
        input: parseArguments(str(obj(c.function).arguments)),
      })),
      stop: chatStop(str(choice.finish_reason)),
      usage: chatUsage(obj(body.usage)),
    };
  }
  const chunks = (await loadChunks("openai-chat", name)).map((l) => obj(JSON.parse(l)));
  let text = "";
  let reasoning = "";
  let finish = "";
  let usage: Obj = {};
  const calls: Array<{ id: string; name: string; args: string }> = [];
  for (const chunk of chunks) {
    if (chunk.usage) usage = obj(chunk.usage);
    const choice = list(chunk.choices)[0];
    if (!choice) continue;
    const delta = obj(choice.delta);
    text += str(delta.content);
    reasoning += str(delta.reasoning_content);
    if (choice.finish_reason) finish = str(choice.finish_reason);
    for (const call of list(delta.tool_calls)) {
      const index = num(call.index);
      const fn = obj(call.function);
      const slot = calls[index] ?? (calls[index] = { id: "", name: "", args: "" });
      if (call.id) slot.id = str(call.id);
      if (fn.name) slot.name = str(fn.name);
      slot.args += str(fn.arguments);
    }
  }
  return {
    text,
    reasoning: reasoning ? [reasoning] : [],
    signed: 0,
    calls: calls.map((c) => ({ id: c.id, name: c.name, input: parseArguments(c.args) })),
    stop: chatStop(finish),
    usage: chatUsage(usage),
  };
}
