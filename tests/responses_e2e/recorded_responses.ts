/**
 * What a recorded OpenAI Responses answer says, read from the transcript itself (never typed by
 * hand): the text, the reasoning summaries, the calls, how it ended and its usage. A stream is
 * read from its `response.output_item.done` items and its terminal event, the way a client
 * reads it; a non-streamed body from its `output`.
 * @module
 */
import { chunkType, isJsonLine, loadChunks, loadJson, splitStreams } from "../fakes/fixtures.ts";

/** One call the model made, in the transcript's own terms. */
export interface RecordedCall {
  kind: "function" | "custom" | "local_shell";
  callId: string;
  name: string;
  /** Function arguments (JSON text) or custom input (raw text). */
  payload: string;
  /** The exec action of a local shell call. */
  action?: Record<string, unknown>;
}

/** The recorded usage. */
export interface RecordedUsage {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
}

/** What one recorded Responses answer holds. */
export interface RecordedResponse {
  status: "completed" | "incomplete" | "failed";
  text: string;
  /** Summary text of each reasoning item that has one. */
  reasoning: string[];
  /** Reasoning items that carry `encrypted_content`. */
  encryptedReasoning: number;
  calls: RecordedCall[];
  usage: RecordedUsage;
  /** `error` event / failed response: the upstream's error code and message. */
  error?: { code: string; message: string };
}

type Obj = Record<string, unknown>;

const obj = (value: unknown): Obj =>
  typeof value === "object" && value !== null ? value as Obj : {};
const str = (value: unknown): string => (typeof value === "string" ? value : "");
const num = (value: unknown): number => (typeof value === "number" ? value : 0);

function usageOf(raw: unknown): RecordedUsage {
  const u = obj(raw);
  return {
    input: num(u.input_tokens),
    cached: num(obj(u.input_tokens_details).cached_tokens),
    output: num(u.output_tokens),
    reasoning: num(obj(u.output_tokens_details).reasoning_tokens),
  };
}

function callOf(item: Obj): RecordedCall | null {
  switch (item.type) {
    case "function_call":
      return {
        kind: "function",
        callId: str(item.call_id),
        name: str(item.name),
        payload: str(item.arguments),
      };
    case "custom_tool_call":
      return {
        kind: "custom",
        callId: str(item.call_id),
        name: str(item.name),
        payload: str(item.input),
      };
    case "local_shell_call":
      return {
        kind: "local_shell",
        callId: str(item.call_id),
        name: "local_shell",
        payload: "",
        action: obj(item.action),
      };
    default:
      return null;
  }
}

/** Reads output items (in order) into text, reasoning and calls. */
function readItems(items: Obj[]): Pick<
  RecordedResponse,
  "text" | "reasoning" | "encryptedReasoning" | "calls"
> {
  let text = "";
  const reasoning: string[] = [];
  let encryptedReasoning = 0;
  const calls: RecordedCall[] = [];
  for (const item of items) {
    if (item.type === "message") {
      for (const part of (Array.isArray(item.content) ? item.content : []).map(obj)) {
        text += str(part.text);
      }
    } else if (item.type === "reasoning") {
      const summary = (Array.isArray(item.summary) ? item.summary : []).map((p) => str(obj(p).text))
        .filter((t) => t !== "");
      if (summary.length > 0) reasoning.push(summary.join("\n\n"));
      if (str(item.encrypted_content)) encryptedReasoning++;
    } else {
      const call = callOf(item);
      if (call) calls.push(call);
    }
  }
  return { text, reasoning, encryptedReasoning, calls };
}

/** The number of HTTP responses a chunks file records (see `splitStreams`). */
export async function recordedStreamCount(name: string): Promise<number> {
  return splitStreams(await loadChunks("openai-responses", name)).length;
}

/** One recorded stream (`part` of a multi-stream file), as a client reads it. Unparsable lines
 * are skipped, as the recording's malformed lines would be by any client. */
export async function recordedStream(name: string, part = 0): Promise<RecordedResponse> {
  const streams = splitStreams(await loadChunks("openai-responses", name));
  const lines = streams[part];
  if (lines === undefined) throw new Error(`${name} has no stream part ${part}`);
  const events = lines.filter(isJsonLine).map((line) => obj(JSON.parse(line)));
  const done = events.filter((e) => e.type === "response.output_item.done").map((e) => obj(e.item));
  const terminal = events.find((e) =>
    e.type === "response.completed" || e.type === "response.incomplete" ||
    e.type === "response.failed"
  );
  const errorEvent = events.find((e) => e.type === "error");
  const response = obj(terminal?.response);
  const failure = errorEvent ? obj(errorEvent.error) : obj(response.error);
  const status = str(response.status);
  return {
    ...readItems(done),
    status: status === "incomplete"
      ? "incomplete"
      : status === "completed"
      ? "completed"
      : "failed",
    usage: usageOf(response.usage),
    ...(failure.code || failure.message
      ? { error: { code: str(failure.code), message: str(failure.message) } }
      : {}),
  };
}

/** A recorded non-streamed body. */
export async function recordedBody(name: string): Promise<RecordedResponse> {
  const body = obj(await loadJson("openai-responses", name));
  const output = (Array.isArray(body.output) ? body.output : []).map(obj);
  const status = str(body.status);
  return {
    ...readItems(output),
    status: status === "incomplete"
      ? "incomplete"
      : status === "completed"
      ? "completed"
      : "failed",
    usage: usageOf(body.usage),
  };
}

/** True when every line of the recorded stream parses (the wrapper recording has two that do
 * not, among them its `response.completed`). */
export async function recordedStreamIsWellFormed(name: string, part = 0): Promise<boolean> {
  const lines = splitStreams(await loadChunks("openai-responses", name))[part] ?? [];
  return lines.every(isJsonLine) &&
    lines.some((line) => chunkType(line) === "response.completed");
}

/**
 * The model's `parallel` wrapper call (GPT's undeclared multi-tool call) as the calls it wraps:
 * `{"tool_uses":[{"recipient_name":"functions.x","parameters":{...}}]}`.
 */
export function wrappedCalls(call: RecordedCall): Array<{ name: string; input: unknown }> | null {
  if (call.name !== "parallel" && call.name !== "multi_tool_use.parallel") return null;
  const uses = obj(JSON.parse(call.payload)).tool_uses;
  if (!Array.isArray(uses)) return null;
  return uses.map((use) => ({
    name: str(obj(use).recipient_name).replace(/^functions\./, ""),
    input: obj(use).parameters ?? {},
  }));
}

/** The JSON object a local shell call's action becomes as function arguments: the exec action
 * without its `type` (empty `env` left out). */
export function localShellInput(action: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = { command: action.command };
  const env = obj(action.env);
  if (Object.keys(env).length > 0) input.env = env;
  for (const key of ["working_directory", "timeout_ms", "user"]) {
    if (action[key] !== undefined && action[key] !== null) input[key] = action[key];
  }
  return input;
}

/** A call as a client of another protocol should see it. `id` is undefined for calls unpacked
 * from the `parallel` wrapper (the gateway derives their ids). */
export interface ClientCall {
  id: string | undefined;
  name: string;
  kind: RecordedCall["kind"];
  /** Function arguments / local shell action as an object; custom input as the raw text. */
  input: unknown;
}

/** The calls a client should see: wrapper calls unpacked, local shell actions as objects. */
export function clientCalls(recorded: RecordedResponse): ClientCall[] {
  return recorded.calls.flatMap((call): ClientCall[] => {
    const wrapped = call.kind === "function" ? wrappedCalls(call) : null;
    if (wrapped) {
      return wrapped.map((w) => ({
        id: undefined,
        name: w.name,
        kind: "function",
        input: w.input,
      }));
    }
    switch (call.kind) {
      case "function":
        return [{
          id: call.callId,
          name: call.name,
          kind: "function",
          input: JSON.parse(call.payload),
        }];
      case "custom":
        return [{ id: call.callId, name: call.name, kind: "custom", input: call.payload }];
      case "local_shell":
        return [{
          id: call.callId,
          name: call.name,
          kind: "local_shell",
          input: localShellInput(call.action ?? {}),
        }];
    }
  });
}
