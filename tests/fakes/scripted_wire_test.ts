import assert from "node:assert/strict";
import { parseSseText } from "./sse_events.ts";
import { startScriptedUpstream } from "./scripted_upstream.ts";

type Json = Record<string, unknown>;

async function postSse(url: string, body: unknown): Promise<{ event?: string; json: Json }[]> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
  const events = parseSseText(await response.text());
  return events.map((e) => ({
    event: e.event,
    json: e.data === "[DONE]" ? { done: true } : JSON.parse(e.data) as Json,
  }));
}

Deno.test("scripted anthropic stream: event names, order and split tool input", async () => {
  const upstream = startScriptedUpstream();
  try {
    const events = await postSse(upstream.url + "/v1/messages", {
      model: "m",
      max_tokens: 10,
      stream: true,
      tools: [{ name: "Read", input_schema: { type: "object" } }],
      messages: [{ role: "user", content: "open /srv/data/notes.txt." }],
    });
    for (const e of events) assert.equal(e.event, e.json.type);
    const types = events.map((e) => e.json.type);
    assert.deepEqual(types.slice(0, 3), ["message_start", "content_block_start", "ping"]);
    assert.deepEqual(types.slice(-3), ["content_block_stop", "message_delta", "message_stop"]);
    const pieces = events
      .map((e) => (e.json.delta as Json | undefined)?.partial_json)
      .filter((p): p is string => typeof p === "string" && p !== "");
    assert.ok(pieces.length >= 2, `tool input in ${pieces.length} piece(s)`);
    assert.deepEqual(JSON.parse(pieces.join("")), { file_path: "/srv/data/notes.txt" });
    const delta = events.at(-2)?.json as Json;
    assert.equal((delta.delta as Json).stop_reason, "tool_use");
    assert.ok(((delta.usage as Json).output_tokens as number) > 0);
  } finally {
    await upstream.close();
  }
});

Deno.test("scripted chat stream: role first, tool call header then pieces, usage, [DONE]", async () => {
  const upstream = startScriptedUpstream();
  try {
    const body = {
      model: "m",
      stream: true,
      tools: [{ type: "function", function: { name: "shell", parameters: { type: "object" } } }],
      messages: [{ role: "user", content: "please `ls -la /tmp`" }],
    };
    const withUsage = await postSse(upstream.url + "/v1/chat/completions", {
      ...body,
      stream_options: { include_usage: true },
    });
    for (const e of withUsage) assert.equal(e.event, undefined);
    assert.deepEqual(withUsage.at(-1)?.json, { done: true });
    const chunks = withUsage.slice(0, -1).map((e) => e.json);
    const deltas = chunks.flatMap((c) => (c.choices as Json[]).map((ch) => ch.delta as Json));
    assert.equal(deltas[0]?.role, "assistant");
    const calls = deltas.flatMap((d) => (d.tool_calls as Json[] | undefined) ?? []);
    const head = calls[0] as Json;
    assert.equal(head.index, 0);
    assert.match(String(head.id), /^call_/);
    assert.equal((head.function as Json).name, "shell");
    const args = calls.slice(1).map((c) => (c.function as Json).arguments as string);
    assert.ok(args.length >= 2);
    assert.deepEqual(JSON.parse(args.join("")), { command: ["bash", "-lc", "ls -la /tmp"] });
    const finish = chunks.flatMap((c) => (c.choices as Json[]).map((ch) => ch.finish_reason));
    assert.equal(finish.filter((f) => f !== null).join(), "tool_calls");
    const last = chunks.at(-1) as Json;
    assert.deepEqual(last.choices, []);
    assert.ok(((last.usage as Json).prompt_tokens as number) > 0);
    assert.ok(chunks.slice(0, -1).every((c) => c.usage === null));

    const withoutUsage = await postSse(upstream.url + "/v1/chat/completions", body);
    assert.ok(withoutUsage.slice(0, -1).every((e) => !("usage" in e.json)));
  } finally {
    await upstream.close();
  }
});

Deno.test("scripted responses stream: numbered events, text parts, completed usage", async () => {
  const upstream = startScriptedUpstream();
  try {
    const events = await postSse(upstream.url + "/v1/responses", {
      model: "m",
      stream: true,
      input: [
        { type: "message", role: "user", content: "run `date`" },
        { type: "custom_tool_call", call_id: "call_1", name: "x", input: "date" },
        { type: "custom_tool_call_output", call_id: "call_1", output: "Mon Jan 5\n" },
      ],
    });
    for (const e of events) assert.equal(e.event, e.json.type);
    assert.deepEqual(events.map((e) => e.json.sequence_number), events.map((_, i) => i));
    const types = events.map((e) => e.json.type);
    assert.equal(types.filter((t) => t === "response.output_text.delta").length, 5);
    assert.deepEqual(types.filter((t, i) => t !== types[i - 1]), [
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const done = events.find((e) => e.json.type === "response.output_text.done")?.json as Json;
    assert.equal(done.text, "Tool said: Mon Jan 5");
    const completed = events.at(-1)?.json.response as Json;
    assert.equal(completed.status, "completed");
    const usage = completed.usage as Json;
    assert.equal(
      usage.total_tokens,
      (usage.input_tokens as number) + (usage.output_tokens as number),
    );
  } finally {
    await upstream.close();
  }
});

Deno.test("scripted upstream: count_tokens, unknown routes and non-JSON bodies", async () => {
  const upstream = startScriptedUpstream();
  try {
    const body = JSON.stringify({ model: "m", messages: [{ role: "user", content: "hé" }] });
    const count = await fetch(upstream.url + "/v1/messages/count_tokens", { method: "POST", body });
    assert.deepEqual(await count.json(), {
      input_tokens: Math.ceil(new TextEncoder().encode(body).length / 4),
    });
    const models = await fetch(upstream.url + "/v1/models");
    assert.equal(models.status, 404);
    assert.match(await models.text(), /no route for GET \/v1\/models/);
    const bad = await fetch(upstream.url + "/v1/messages", { method: "POST", body: "nope" });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /JSON object body/);
    assert.equal(upstream.steps.length, 0);
    assert.equal(upstream.requests.length, 3);
  } finally {
    await upstream.close();
  }
});
