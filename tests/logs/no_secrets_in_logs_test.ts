/**
 * What a request's log lines may hold: ids, names, models, numbers, gatehouse's own error words
 * and a provider's error code — never the prompt, the answer, a provider's error message (it may
 * quote either), a gatehouse key or a provider credential. A provider fake that echoes the body
 * and the credential it got in its answers and errors runs passthrough and translated requests,
 * retried, failed and refused, and every line of the gateway's logs (its logger, the request log
 * in both formats, the deployment health lines) is searched for them.
 */
import assert from "node:assert/strict";
import { consoleLogger } from "../../gateway/log.ts";
import { combineObservers } from "../../observe/observer.ts";
import { logHealthChanges } from "../../observe/logs/events.ts";
import { requestLogObserver } from "../../observe/logs/request_log.ts";
import { memorySink } from "../../observe/logs/sink.ts";
import { makeHarness, upstreamEnv } from "../harness.ts";
import { memoryLine } from "./collect.ts";
import { startEchoUpstream } from "./echo_upstream.ts";

const MARKER = "PROMPT-MARKER-7f3a9c";
const ANSWER_MARKER = "SYSTEM-MARKER-b41d";
const upstream = startEchoUpstream();
const env = upstreamEnv(upstream.url);
const h = await makeHarness({
  demo: false,
  env: { ...env, GATEHOUSE_RETRIES: "1", GATEHOUSE_COOLDOWN_FAILURES: "2" },
});
const json = memorySink();
const text = memorySink();
const jsonLog = consoleLogger({ format: "json", sink: json });
logHealthChanges(h.deps.health, jsonLog);
h.deps.observer = combineObservers([
  requestLogObserver(jsonLog),
  requestLogObserver(consoleLogger({ format: "text", sink: text })),
]);

/** Every log line the gateway wrote so far. */
const lines = () => [...h.logs.map(memoryLine), ...json.lines, ...text.lines];

function post(path: string, body: Record<string, unknown>) {
  return h.request(path, {
    method: "POST",
    headers: { authorization: `Bearer ${h.key}`, "user-agent": "log-test/1.0" },
    json: body,
  });
}

const chatBody = (model: string) => ({
  model,
  max_tokens: 64,
  messages: [
    { role: "system", content: `You are ${ANSWER_MARKER}.` },
    { role: "user", content: `Repeat ${MARKER} please` },
  ],
});
const messagesBody = (model: string) => ({
  model,
  max_tokens: 64,
  system: `You are ${ANSWER_MARKER}.`,
  messages: [{ role: "user", content: `Repeat ${MARKER} please` }],
});

/** Every request the test makes: passthrough and translated, answered, retried, failed. */
const cases: Array<
  { name: string; modes: Parameters<typeof upstream.push>; send: () => Promise<Response> }
> = [
  {
    name: "chat passthrough, answered",
    modes: ["ok"],
    send: () => post("/v1/chat/completions", chatBody("gpt-5")),
  },
  {
    name: "messages passthrough, answered",
    modes: ["ok"],
    send: () => post("/v1/messages", messagesBody("claude-sonnet-5")),
  },
  {
    name: "chat → messages, answered",
    modes: ["ok"],
    send: () => post("/v1/chat/completions", chatBody("claude-sonnet-5")),
  },
  {
    name: "messages → chat, answered",
    modes: ["ok"],
    send: () => post("/v1/messages", messagesBody("gpt-5")),
  },
  {
    name: "chat passthrough, retried after an echoing 503",
    modes: ["overloaded", "ok"],
    send: () => post("/v1/chat/completions", chatBody("gpt-5-mini")),
  },
  {
    name: "messages → chat, failed twice with echoing 503s",
    modes: ["overloaded", "overloaded"],
    send: () => post("/v1/messages", messagesBody("gpt-5")),
  },
  {
    name: "chat → messages, failed with echoing 529s",
    modes: ["overloaded", "overloaded"],
    send: () => post("/v1/chat/completions", chatBody("claude-haiku-4-5")),
  },
  {
    name: "chat passthrough, an echoing 400",
    modes: ["bad_request"],
    send: () => post("/v1/chat/completions", chatBody("gpt-5.5-medium")),
  },
  {
    name: "messages passthrough, a 401 quoting the provider key",
    modes: ["bad_key"],
    send: () => post("/v1/messages", messagesBody("claude-opus-5-5")),
  },
  {
    name: "chat passthrough, a 401 quoting the provider key",
    modes: ["bad_key"],
    send: () => post("/v1/chat/completions", chatBody("gpt-5.5-small")),
  },
];

Deno.test("logs: no prompt, answer, provider error words, key or provider credential", async () => {
  for (const c of cases) {
    upstream.push(...c.modes);
    const response = await c.send();
    const body = await response.text();
    assert.ok(response.status > 0, c.name);
    if (c.modes.at(-1) === "ok") {
      assert.equal(response.status, 200, `${c.name}: ${body}`);
      assert.ok(body.includes(MARKER), `${c.name}: the answer quotes the prompt (the fake works)`);
    }
  }
  // Let the last settles land.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const all = lines();
  assert.ok(json.lines.length >= cases.length, "a request line per request");
  assert.ok(
    h.logs.some((line) => line.message === "upstream attempt failed"),
    "failed attempts were logged (the failure lines are searched too)",
  );
  assert.ok(
    json.lines.some((line) => line.includes('"event":"deployment_health"')),
    "a deployment cooled down (its line is searched too)",
  );
  const forbidden: Array<[string, string]> = [
    ["the prompt", MARKER],
    ["the system prompt", ANSWER_MARKER],
    ["the client's gatehouse key", h.key],
    ["the OpenAI credential", env.OPENAI_API_KEY!],
    ["the Anthropic credential", env.ANTHROPIC_API_KEY!],
    ["a provider's echo", "you sent"],
  ];
  for (const [what, secret] of forbidden) {
    const leaked = all.filter((line) => line.includes(secret));
    assert.deepEqual(leaked, [], `${what} is in ${leaked.length} log lines`);
  }
});

Deno.test("logs: the request lines say what happened, in both formats", () => {
  const requests = json.lines.map((line) => JSON.parse(line)).filter((l) => l.event === "request");
  const outcomes = requests.map((l) =>
    `${l.route} ${l.model} ${l.status} ${l.outcome} ${l.attempts}`
  );
  assert.ok(outcomes.includes("/v1/chat/completions gpt-5-mini 200 ok 2"), outcomes.join("\n"));
  assert.ok(requests.every((l) => l.keyName === "test" && l.userAgent === "log-test/1.0"));
  assert.ok(
    text.lines.every((line) => / INFO request req_\w+ \/v1\/\S+ \d{3} \w+ key=/.test(line)),
  );
});

Deno.test("logs: close", async () => {
  await h.close();
  await upstream.close();
});
