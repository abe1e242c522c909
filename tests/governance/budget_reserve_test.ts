/**
 * Reservations do not starve agents: a long stream in flight under a budget does not block a
 * short request under the same budget when both fit, although the long one asks for 128k output
 * tokens (its reservation is capped at 4096). The hold is measured over HTTP (`GET /v1/usage`,
 * `in_flight_usd`) against the documented estimate: input ceil(bytes / 4), output
 * min(asked or 1024, model max, 4096). And a typical Claude-Code-like request: what it reserves
 * against what it spends (printed).
 */
import assert from "node:assert/strict";
import {
  bodyFor,
  type Gov,
  PASSTHROUGH,
  readStream,
  type Route,
  startGov,
  TRANSLATED,
  until,
  WIRES,
} from "./gov_kit.ts";

const gov = await startGov();

/** The documented estimate, computed here on its own: dollars a request reserves. */
function documentedReservation(route: Route, body: Record<string, unknown>): number {
  const model = gov.h.deps.catalog.resolve(route.model)!;
  const bytes = new TextEncoder().encode(JSON.stringify(body)).length;
  const asked = (body.max_tokens ?? body.max_output_tokens ?? 1024) as number;
  const output = Math.min(asked, model.maxOutputTokens ?? Infinity, 4096);
  const { input = 0, output: out = 0 } = model.pricing;
  return (Math.ceil(bytes / 4) * input + output * out) / 1e6;
}

/** The key's dollars in flight, as `GET /v1/usage` reports them. */
async function inFlight(g: Gov, secret: string): Promise<number> {
  const usage = await (await g.get("/v1/usage", secret)).json();
  return usage.budget.in_flight_usd;
}

for (const route of WIRES.flatMap((wire) => [PASSTHROUGH[wire], TRANSLATED[wire]])) {
  Deno.test(`${route.name}: a 128k-token stream in flight leaves room for a short request`, async () => {
    Object.assign(gov.upstream.pace, { eventsPerChunk: 1, delayMs: 1, holdAfterChunks: 3 });
    const long = bodyFor(route.wire, route.model, { stream: true, maxTokens: 128_000 });
    const short = bodyFor(route.wire, route.model, { maxTokens: 100 });
    const longHold = documentedReservation(route, long);
    const shortHold = documentedReservation(route, short);
    const model = gov.h.deps.catalog.resolve(route.model)!;
    const uncapped = (Math.min(128_000, model.maxOutputTokens!) * model.pricing.output!) / 1e6;
    // Both capped reservations fit; the uncapped one alone would not.
    const budget = Math.round((longHold + 2 * shortHold) * 1e6) / 1e6;
    assert.ok(uncapped > budget, "without the cap the long request would fill the budget");
    const key = await gov.key({ budgetUsd: budget, budgetPeriod: "day" });

    const stream = await gov.send(route.wire, key.secret, long);
    assert.equal(stream.status, 200);
    const held = await inFlight(gov, key.secret);
    assert.ok(Math.abs(held - longHold) < 2e-6, `holds ${held}, the estimate says ${longHold}`);

    const quick = await gov.send(route.wire, key.secret, short);
    assert.equal(quick.status, 200, "the short request is not blocked by the long stream");
    await quick.json();
    assert.ok(await until(() => gov.rows(key.id).length === 1));
    assert.equal(gov.rows(key.id)[0]!.outcome, "ok");
    // The budget is live: a second long request does not fit beside the first.
    const second = await gov.send(route.wire, key.secret, { ...long, stream: false });
    assert.equal(second.status, 429);
    assert.match(await second.text(), /held by 1 request in flight/);

    gov.upstream.release();
    const read = await readStream(route.wire, stream);
    assert.equal(read.ending, "clean");
    assert.ok(await until(() => gov.rows(key.id).length === 3));
    assert.equal(await inFlight(gov, key.secret), 0);
  });
}

/** A request shaped like Claude Code's: a long system prompt, a dozen tools with JSON schemas,
 * a system reminder and the prompt; 128k max tokens; streamed. */
function claudeCodeLike(model: string): Record<string, unknown> {
  const sentence = "You are an interactive CLI tool that helps users with software engineering " +
    "tasks. Use the instructions below and the tools available to you to assist the user. ";
  const tool = (name: string) => ({
    name,
    description: `${name}: ${sentence.repeat(6)}`,
    input_schema: {
      type: "object",
      properties: Object.fromEntries(
        ["file_path", "command", "pattern", "content", "timeout"].map((p) => [p, {
          type: p === "timeout" ? "number" : "string",
          description: `The ${p} to use. ${sentence}`,
        }]),
      ),
      required: ["file_path"],
      additionalProperties: false,
    },
  });
  const tools = ["Read", "Bash", "Glob", "Grep", "Edit", "Write", "TodoWrite", "WebFetch"];
  return {
    model,
    max_tokens: 128_000,
    stream: true,
    system: [{ type: "text", text: sentence.repeat(80), cache_control: { type: "ephemeral" } }],
    tools: [...tools, "NotebookEdit", "WebSearch", "Task", "ExitPlanMode"].map(tool),
    messages: [{
      role: "user",
      content: [
        { type: "text", text: `<system-reminder>${sentence.repeat(10)}</system-reminder>` },
        { type: "text", text: "read /etc/hostname and tell me what it says" },
      ],
    }],
    metadata: { user_id: "user_0123456789abcdef" },
  };
}

Deno.test("a Claude-Code-like request: what it reserves against what it spends", async () => {
  Object.assign(gov.upstream.pace, { eventsPerChunk: 1, delayMs: 1, holdAfterChunks: 2 });
  const route: Route = { name: "claude code", wire: "messages", model: "claude-opus-5-5" };
  const body = claudeCodeLike(route.model);
  const key = await gov.key({ budgetUsd: 10, budgetPeriod: "day" });
  const stream = await gov.send("messages", key.secret, body);
  assert.equal(stream.status, 200);
  const reserved = await inFlight(gov, key.secret);
  assert.ok(Math.abs(reserved - documentedReservation(route, body)) < 2e-6);
  gov.upstream.release();
  const read = await readStream("messages", stream);
  assert.equal(read.ending, "clean");
  assert.ok(await until(() => gov.rows(key.id).length === 1));
  const row = gov.rows(key.id)[0]!;
  const bytes = JSON.stringify(body).length;
  const pricing = gov.h.deps.catalog.resolve(route.model)!.pricing;
  const uncapped = (Math.ceil(bytes / 4) * pricing.input! + 128_000 * pricing.output!) / 1e6;
  console.log(
    `Claude-Code-like request to ${route.model} (${bytes} bytes, max_tokens 128000): ` +
      `reserves $${reserved.toFixed(6)} (input est. ${Math.ceil(bytes / 4)} tokens + 4096 ` +
      `output), spends $${row.cost.toFixed(6)} (${row.inputTokens} in, ${row.outputTokens} ` +
      `out, a tool call); reservation/spend ${(reserved / row.cost).toFixed(2)}×; uncapped it ` +
      `would reserve $${uncapped.toFixed(4)} (${(uncapped / row.cost).toFixed(1)}×)`,
  );
  assert.ok(row.cost > 0 && row.cost < reserved, "a typical call spends less than it reserves");
  assert.equal(await inFlight(gov, key.secret), 0);
});

Deno.test("budget reservations: close", async () => {
  gov.upstream.release();
  await gov.close();
});
