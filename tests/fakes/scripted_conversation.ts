/**
 * Reads what the scripted upstream needs from a request on each wire: the tools the client offered,
 * the user's texts (newest first) and the tool result of the latest turn, if any.
 * @module
 */

/** The three LLM wires the scripted upstream speaks. */
export type LlmWire = "anthropic" | "chat" | "responses";

/** A tool the client offered: a named function, or the Responses built-in `local_shell`. */
export type OfferedTool = { kind: "function"; name: string } | { kind: "local_shell" };

/** The parts of a conversation that decide the scripted reply. */
export interface Conversation {
  tools: OfferedTool[];
  /** Every user text, newest message first and, inside a message, last part first. */
  userTexts: string[];
  /** The output of the first tool result of the latest turn, or `undefined` when there is none. */
  toolResult: string | undefined;
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function list(value: unknown): Obj[] {
  return Array.isArray(value) ? value.filter(isObj) : [];
}

/** Text of a string or of the text parts of a content array (`text`, `input_text`, `output_text`). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return list(content)
    .map((part) => typeof part.text === "string" ? part.text : "")
    .join("");
}

/** The text parts of a message content, last first. */
function textsNewestFirst(content: unknown): string[] {
  if (typeof content === "string") return [content];
  return list(content)
    .filter((part) => part.type !== "tool_result" && typeof part.text === "string")
    .map((part) => part.text as string)
    .reverse();
}

function anthropic(body: Obj): Conversation {
  const messages = list(body.messages);
  const tools = list(body.tools)
    // Server tools (web_search, ...) carry a versioned `type`; client tools have none or "custom".
    .filter((tool) => tool.type === undefined || tool.type === "custom")
    .flatMap((tool): OfferedTool[] =>
      typeof tool.name === "string" ? [{ kind: "function", name: tool.name }] : []
    );
  const users = messages.filter((m) => m.role === "user").reverse();
  const latest = users[0];
  const result = list(latest?.content).find((block) => block.type === "tool_result");
  return {
    tools,
    userTexts: users.flatMap((m) => textsNewestFirst(m.content)),
    toolResult: result === undefined ? undefined : textOf(result.content),
  };
}

/** Tool outputs after the newest user message, oldest first (skipping every other item). */
function trailingResults(
  items: Obj[],
  isUser: (item: Obj) => boolean,
  isResult: (item: Obj) => boolean,
) {
  const results: Obj[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item === undefined || isUser(item)) break;
    if (isResult(item)) results.unshift(item);
  }
  return results;
}

function chat(body: Obj): Conversation {
  const messages = list(body.messages);
  const tools = list(body.tools).flatMap((tool): OfferedTool[] => {
    const fn = isObj(tool.function) ? tool.function : {};
    return tool.type === "function" && typeof fn.name === "string"
      ? [{ kind: "function", name: fn.name }]
      : [];
  });
  const results = trailingResults(messages, (m) => m.role === "user", (m) => m.role === "tool");
  return {
    tools,
    userTexts: messages.filter((m) => m.role === "user").reverse().flatMap((m) =>
      textsNewestFirst(m.content)
    ),
    toolResult: results[0] === undefined ? undefined : textOf(results[0].content),
  };
}

const RESPONSES_RESULTS: ReadonlySet<unknown> = new Set([
  "function_call_output",
  "custom_tool_call_output",
  "local_shell_call_output",
]);

function responses(body: Obj): Conversation {
  const items: Obj[] = typeof body.input === "string"
    ? [{ type: "message", role: "user", content: body.input }]
    : list(body.input);
  const tools = list(body.tools).flatMap((tool): OfferedTool[] => {
    if (tool.type === "local_shell") return [{ kind: "local_shell" }];
    return tool.type === "function" && typeof tool.name === "string"
      ? [{ kind: "function", name: tool.name }]
      : [];
  });
  const isUser = (item: Obj) => (item.type ?? "message") === "message" && item.role === "user";
  const results = trailingResults(items, isUser, (item) => RESPONSES_RESULTS.has(item.type));
  return {
    tools,
    userTexts: items.filter(isUser).reverse().flatMap((m) => textsNewestFirst(m.content)),
    toolResult: results[0] === undefined ? undefined : textOf(results[0].output),
  };
}

/** Reads a request body of `wire` (an object; anything else reads as an empty conversation). */
export function readConversation(wire: LlmWire, body: unknown): Conversation {
  const obj = isObj(body) ? body : {};
  switch (wire) {
    case "anthropic":
      return anthropic(obj);
    case "chat":
      return chat(obj);
    case "responses":
      return responses(obj);
  }
}
