/**
 * A coding agent's Chat Completions request at its real size: a long system prompt, several
 * tools (one with a `model` parameter, as Claude Code's Agent tool has), and a conversation in
 * which the agent read a source file (a tool call and its result). Claude Code's first request,
 * captured here, was 49 kB: model first, non-ASCII text, 12 tools.
 * The bench's other bodies are about 1 kB; the agents gatehouse is built for send tens of
 * kilobytes a turn, and costs that grow with the body (reading, decoding, parsing, scanning,
 * encoding it again) only show at that size. The file holds non-ASCII text (accents, arrows, an
 * emoji), as real sources do, so the body's text is not one byte a character. Deterministic:
 * every call builds the same body.
 * @module
 */

/** The body's size in bytes, about (`agentChatRequest`'s JSON text). */
const AGENT_BODY_BYTES = 56_000;

const SYSTEM = [
  "You are a coding agent working in the user's repository through tools.",
  "Read files before changing them, keep diffs small, run the tests after each change, and",
  "report what you changed and how you verified it. Never invent file contents.",
].join(" ");

/** One function tool in the Chat Completions shape. */
function tool(name: string, description: string, properties: Record<string, unknown>) {
  return {
    type: "function",
    function: {
      name,
      description,
      parameters: {
        type: "object",
        properties,
        required: Object.keys(properties).slice(0, 1),
        additionalProperties: false,
      },
    },
  };
}

const PATH = { type: "string", description: "Path relative to the repository root." };

const TOOLS = [
  tool("read_file", "Read a UTF-8 text file and return its contents with line numbers.", {
    path: PATH,
    start_line: { type: "integer", minimum: 1 },
    end_line: { type: "integer", minimum: 1 },
  }),
  tool("write_file", "Replace a file's contents, creating it when missing.", {
    path: PATH,
    content: { type: "string", description: "The whole new contents." },
  }),
  tool("edit_file", "Replace one exact, unique occurrence of a string in a file.", {
    path: PATH,
    old_string: { type: "string" },
    new_string: { type: "string" },
  }),
  tool("run_command", "Run a shell command in the repository and return its output.", {
    command: { type: "string" },
    timeout_ms: { type: "integer", minimum: 1000, maximum: 600000 },
  }),
  tool("search", "Search the repository's files for a regular expression.", {
    pattern: { type: "string" },
    glob: { type: "string", description: "Only files matching this glob." },
  }),
  // A `model` parameter, as Claude Code's Agent tool has: a second "model" key in the body.
  tool("agent", "Hand a task to a sub-agent and return its final answer.", {
    prompt: { type: "string" },
    model: { type: "string", enum: ["fast", "strong"], description: "The sub-agent's model." },
  }),
];

/** Line `n` of the file the agent read: code and comments, some of them not ASCII. */
function sourceLine(n: number): string {
  switch (n % 8) {
    case 0:
      return `${n}\t/** Étape ${n}: the request's résumé → the ledger (naïve café-style batching). */`;
    case 1:
      return `${n}\texport function step${n}(input: Record<string, unknown>): number {`;
    case 2:
      return `${n}\t  const value = Number(input["field_${n}"] ?? 0); // größer als null? ✓`;
    case 3:
      return `${n}\t  if (!Number.isFinite(value)) throw new TypeError("field_${n} is not a number");`;
    case 4:
      return `${n}\t  // “Quoted” text, a tab\there, and an emoji 🚀 that takes two UTF-16 units`;
    case 5:
      return `${n}\t  return value * ${n} + "\\\\".length;`;
    case 6:
      return `${n}\t}`;
    default:
      return `${n}\t`;
  }
}

/** The source file's text, about `bytes` UTF-8 bytes. */
function sourceFile(bytes: number): string {
  const encoder = new TextEncoder();
  const lines: string[] = [];
  let size = 0;
  for (let n = 1; size < bytes; n++) {
    const line = sourceLine(n);
    lines.push(line);
    size += encoder.encode(line).length + 1;
  }
  return lines.join("\n");
}

/** The request, for `model`, answered whole. */
export function agentChatRequest(model: string): Record<string, unknown> {
  const file = sourceFile(AGENT_BODY_BYTES - 5_000);
  return {
    model,
    messages: [
      { role: "system", content: SYSTEM },
      { role: "user", content: "Why does step 41 throw on an empty field? Fix it." },
      {
        role: "assistant",
        content: null,
        tool_calls: [{
          id: "call_read_1",
          type: "function",
          function: { name: "read_file", arguments: JSON.stringify({ path: "src/steps.ts" }) },
        }],
      },
      { role: "tool", tool_call_id: "call_read_1", content: file },
    ],
    tools: TOOLS,
    max_completion_tokens: 4096,
  };
}
