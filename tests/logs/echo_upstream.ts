/**
 * A provider fake that repeats what it was sent: its answers and its error messages quote the
 * request body and the credential it received — the worst a real provider could do — so a test
 * can check that none of it reaches a log line. It answers the OpenAI chat and Anthropic
 * Messages wires (whole answers), with the next mode of its queue, then `ok`.
 * @module
 */

/** How one request is answered. */
export type EchoMode =
  /** 200: the answer's text quotes the prompt. */
  | "ok"
  /** A retryable error (529 Anthropic, 503 OpenAI) whose message quotes the body and key. */
  | "overloaded"
  /** 400 whose message quotes the body (given to the client as it is). */
  | "bad_request"
  /** 401 whose message quotes the credential, as OpenAI's "Incorrect API key provided". */
  | "bad_key";

/** A running echo fake. */
export interface EchoUpstream {
  url: string;
  push(...modes: EchoMode[]): void;
  close(): Promise<void>;
}

/** Starts the fake on a loopback port. */
export function startEchoUpstream(): EchoUpstream {
  const queue: EchoMode[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.text();
    const credential = req.headers.get("authorization") ?? req.headers.get("x-api-key") ?? "";
    const anthropic = new URL(req.url).pathname.endsWith("/messages");
    const mode = queue.shift() ?? "ok";
    const echo = `you sent ${body} with ${credential}`;
    if (mode === "ok") return Response.json(anthropic ? message(echo) : chat(echo));
    const status = mode === "overloaded" ? (anthropic ? 529 : 503) : mode === "bad_key" ? 401 : 400;
    const type = mode === "overloaded"
      ? (anthropic ? "overloaded_error" : "server_error")
      : mode === "bad_key"
      ? (anthropic ? "authentication_error" : "invalid_request_error")
      : "invalid_request_error";
    return Response.json(
      anthropic
        ? { type: "error", error: { type, message: echo } }
        : { error: { message: echo, type, param: null, code: type } },
      { status },
    );
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    push: (...modes) => void queue.push(...modes),
    close: () => server.shutdown(),
  };
}

function chat(text: string) {
  return {
    id: "chatcmpl-echo",
    object: "chat.completion",
    created: 1,
    model: "echo",
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
  };
}

function message(text: string) {
  return {
    id: "msg_echo",
    type: "message",
    role: "assistant",
    model: "echo",
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 20 },
  };
}
