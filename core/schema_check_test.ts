import assert from "node:assert/strict";
import { z } from "zod";
import { compileCheck, safeParseChecked } from "./schema_check.ts";
import {
  MessageResponseSchema,
  MessagesRequestSchema,
} from "../protocols/anthropic_messages/schemas.ts";
import { ChatCompletionRequestSchema } from "../protocols/openai_chat/schemas.ts";
import { ChatCompletionResponseSchema } from "../protocols/openai_chat/response_schemas.ts";
import { ResponsesRequestSchema } from "../protocols/openai_responses/schemas.ts";
import {
  ChatRequestBody,
  CountTokensBody,
  ImagesRequestBody,
  MessagesRequestBody,
  ResponsesRequestBody,
} from "../routes/bodies.ts";
import { FIXTURE_FOLDERS, fixtureKinds, listFixtures, loadJson } from "../tests/fakes/fixtures.ts";
import { seededRandom } from "./seeded_random.ts";

const TOOL = {
  name: "read_file",
  description: "Read a file",
  input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

const MESSAGES_REQUEST = {
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  system: [{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }],
  messages: [
    { role: "user", content: "Hello" },
    {
      role: "user",
      content: [
        { type: "text", text: "Look" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } },
        { type: "image", source: { type: "url", url: "https://example.test/a.png" } },
        { type: "document", source: { type: "text", media_type: "text/plain", data: "doc" } },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hmm", signature: "sig" },
        { type: "redacted_thinking", data: "xyz" },
        { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "text", is_error: false },
        { type: "server_tool_use", id: "x", name: "web_search", input: {} },
      ],
    },
  ],
  tools: [TOOL, { type: "web_search_20250305", name: "web_search", max_uses: 3 }],
  tool_choice: { type: "auto" },
  thinking: { type: "enabled", budget_tokens: 2048 },
  temperature: 0.5,
  top_k: 5,
  stop_sequences: ["END"],
  metadata: { user_id: "u" },
  stream: true,
  context_management: { edits: [] },
};

const CHAT_REQUEST = {
  model: "gpt-5",
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: [{ type: "text", text: "Hi" }] },
    {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: "call_1",
        type: "function",
        function: { name: "read_file", arguments: '{"path":"a"}' },
      }],
    },
    { role: "tool", tool_call_id: "call_1", content: "file" },
  ],
  tools: [{
    type: "function",
    function: { name: TOOL.name, description: TOOL.description, parameters: TOOL.input_schema },
  }],
  tool_choice: "auto",
  max_completion_tokens: 512,
  stream: true,
  stream_options: { include_usage: true },
  temperature: 1,
  n: 1,
};

const RESPONSES_REQUEST = {
  model: "gpt-5",
  instructions: "You are terse.",
  input: [
    { type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] },
    { type: "message", role: "assistant", content: [{ type: "output_text", text: "Yo" }] },
    { type: "function_call", call_id: "c1", name: "read_file", arguments: "{}" },
    { type: "function_call_output", call_id: "c1", output: "file" },
  ],
  tools: [{ type: "function", name: "read_file", parameters: TOOL.input_schema, strict: false }],
  max_output_tokens: 1024,
  store: false,
  stream: true,
};

type Path = Array<string | number>;

function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (value === null || typeof value !== "object") return out;
  for (const [k, v] of Object.entries(value)) {
    const key = Array.isArray(value) ? Number(k) : k;
    out.push([...at, key]);
    pathsOf(v, [...at, key], out);
  }
  return out;
}

const REPLACEMENTS: unknown[] = [
  null,
  undefined,
  "",
  "x",
  "text",
  "tool_use",
  "enabled",
  "user",
  0,
  -1,
  1.5,
  2 ** 60,
  true,
  [],
  {},
  [{}],
  { type: "text" },
];

/** `value` with one random change: a key deleted, a value replaced, or a key added. */
function mutate(value: unknown, next: () => number): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  const paths = pathsOf(copy);
  if (paths.length === 0) return { ...copy, extra: 1 };
  const path = paths[Math.floor(next() * paths.length)]!;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  const roll = next();
  if (roll < 0.2 && !Array.isArray(parent)) delete parent[last];
  else if (roll < 0.3 && !Array.isArray(parent)) parent[`extra_${Math.floor(next() * 3)}`] = 1;
  else parent[last] = REPLACEMENTS[Math.floor(next() * REPLACEMENTS.length)];
  return copy;
}

/** The check's one promise: when it says yes, zod says yes and returns the value unchanged. */
function assertAgrees(schema: z.ZodType, value: unknown, what: string): boolean {
  const check = compileCheck(schema)!;
  if (!check(value)) return false;
  const parsed = schema.safeParse(value);
  assert.ok(parsed.success, `${what}: the check passed a value zod refuses`);
  assert.deepStrictEqual(parsed.data, value, `${what}: zod changed a value the check passed`);
  return true;
}

async function responseBodies(): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for (const folder of FIXTURE_FOLDERS) {
    for (const name of await listFixtures(folder)) {
      if ((await fixtureKinds(folder, name)).json) bodies.push(await loadJson(folder, name));
    }
  }
  return bodies;
}

Deno.test("every wire schema compiles, and its check agrees with zod on mutated bodies", async () => {
  const cases: Array<[string, z.ZodType, unknown[]]> = [
    ["MessagesRequestSchema", MessagesRequestSchema, [MESSAGES_REQUEST]],
    ["MessagesRequestBody", MessagesRequestBody, [MESSAGES_REQUEST]],
    ["CountTokensBody", CountTokensBody, [MESSAGES_REQUEST]],
    ["ChatCompletionRequestSchema", ChatCompletionRequestSchema, [CHAT_REQUEST]],
    ["ChatRequestBody", ChatRequestBody, [CHAT_REQUEST]],
    ["ResponsesRequestSchema", ResponsesRequestSchema, [RESPONSES_REQUEST]],
    ["ResponsesRequestBody", ResponsesRequestBody, [RESPONSES_REQUEST]],
    ["ImagesRequestBody", ImagesRequestBody, [{ model: "gpt-image-1", prompt: "a cat", n: 2 }]],
  ];
  const responses = await responseBodies();
  cases.push(["MessageResponseSchema", MessageResponseSchema, responses]);
  cases.push(["ChatCompletionResponseSchema", ChatCompletionResponseSchema, responses]);
  for (const [name, schema, bodies] of cases) {
    assert.notEqual(compileCheck(schema), null, `${name} compiles`);
    let accepted = 0;
    let refused = 0;
    for (const body of bodies) assertAgrees(schema, body, name) ? accepted++ : refused++;
    assert.ok(accepted > 0, `${name}: the check passes at least one valid body`);
    const next = seededRandom(name.length * 7919);
    for (let i = 0; i < 600; i++) {
      const body = bodies[i % bodies.length];
      const mutated = mutate(mutate(body, next), next);
      assertAgrees(schema, mutated, `${name}, mutation ${i}: ${JSON.stringify(mutated)}`)
        ? accepted++
        : refused++;
    }
    // Both sides of the check were exercised.
    assert.ok(refused > 0, `${name}: some mutation was refused`);
  }
});

Deno.test("the check leaves to zod what it cannot prove unchanged", () => {
  const required = z.looseObject({ a: z.unknown() });
  assert.equal(compileCheck(required)!({}), false, "zod requires a non-optional unknown key");
  assert.equal(required.safeParse({}).success, false);

  const stripping = z.object({ a: z.string() });
  assert.equal(compileCheck(stripping)!({ a: "x", b: 1 }), false, "zod would strip b");
  assert.equal(compileCheck(stripping)!({ a: "x" }), true);

  const strict = z.strictObject({ a: z.string() });
  assert.equal(compileCheck(strict)!({ a: "x", b: 1 }), false);

  const min = z.string().min(2);
  assert.equal(compileCheck(min)!("ab"), false, "2 to 3 units may be one or two code points");
  assert.equal(compileCheck(min)!("abcd"), true);

  const int = z.number().int().positive();
  for (const v of [1, 2 ** 53 - 1]) assert.equal(compileCheck(int)!(v), true);
  for (const v of [0, 1.5, 2 ** 53, Infinity, NaN, "1"]) assert.equal(compileCheck(int)!(v), false);

  assert.equal(compileCheck(z.string().email()), null, "a string format is zod's");
  assert.equal(compileCheck(z.string().refine((s) => s !== "")), null, "a refinement is zod's");
  assert.equal(compileCheck(z.string().default("x")), null, "a default changes the value");
  assert.equal(compileCheck(z.string().transform((s) => s.length)), null);
  assert.equal(compileCheck(z.coerce.number()), null);
  assert.equal(compileCheck(z.looseObject({ a: z.string().trim() })), null);
});

Deno.test("the check's review cases: each is zod's", () => {
  const refusedOrChanged = (schema: z.ZodType, value: unknown, why: string) => {
    assert.equal(compileCheck(schema)?.(value) ?? false, false, why);
    const parsed = schema.safeParse(value);
    assert.ok(
      !parsed.success || JSON.stringify(parsed.data) !== JSON.stringify(value) ||
        Object.hasOwn(value as object, "__proto__"),
      `${why}: zod refuses or changes it`,
    );
  };
  // zod leaves an own __proto__ key out of its copy, in a loose object and in a record.
  const proto = JSON.parse('{"model":"m","max_tokens":5,"messages":[],"__proto__":{"x":1}}');
  refusedOrChanged(MessagesRequestSchema, proto, "a loose object with __proto__");
  refusedOrChanged(z.record(z.string(), z.unknown()), JSON.parse('{"__proto__":1}'), "a record");
  // The first option that succeeds wins, even one that strips.
  const union = z.union([
    z.object({ a: z.string() }),
    z.looseObject({ a: z.string(), b: z.number() }),
  ]);
  refusedOrChanged(union, { a: "x", b: 1 }, "a later option behind a stripping one");
  assert.equal(compileCheck(union)!({ a: "x" }), true);
  // An exclusive union refuses a value two options take.
  const xor = z.xor([z.looseObject({ a: z.string() }), z.looseObject({ b: z.string() })]);
  refusedOrChanged(xor, { a: "x", b: "y" }, "xor");
  refusedOrChanged(z.record(z.email(), z.unknown()), { notanemail: 1 }, "a record key format");
  refusedOrChanged(z.looseObject({ toString: z.string().optional() }), {}, "a prototype-named key");
  refusedOrChanged(z.array(z.string()), [, "a"], "a hole in an array");
  // A discriminated union still answers: its options are told apart by their literal.
  const tagged = z.discriminatedUnion("type", [
    z.looseObject({ type: z.literal("a"), x: z.string() }),
    z.looseObject({ type: z.literal("b") }),
  ]);
  assert.equal(compileCheck(tagged)!({ type: "b", x: 1 }), true);
  assert.equal(compileCheck(tagged)!({ type: "a", x: 1 }), false);
});

Deno.test("safeParseChecked answers with the value itself, or with zod's own refusal", () => {
  const schema = z.looseObject({ model: z.string().min(1), n: z.number().optional() });
  const value = { model: "gpt-5", other: [1] };
  const ok = safeParseChecked(schema, value);
  assert.ok(ok.success);
  assert.equal(ok.data, value);

  const bad = safeParseChecked(schema, { model: "gpt-5", n: "2" });
  assert.ok(!bad.success);
  assert.deepEqual(bad.error.issues.map((i) => i.path), [["n"]]);
});
