/**
 * The real Codex CLI completes a shell round trip through gatehouse on three kinds of model: it
 * is asked to run `cat <file>`, the scripted upstream calls its `exec_command` tool with that
 * command, Codex runs it (read-only sandbox) and sends the output back as a
 * `function_call_output`, and the upstream answers `Tool said: <first line>`.
 *
 * Codex talks only the Responses API (`wire_api = "responses"`, plain HTTP since
 * `supports_websockets = false`); gatehouse passes it through to a Responses upstream or
 * translates it for a chat-only or an Anthropic upstream. Codex runs offline: its own calls home
 * (analytics, plugin sync) are switched off in `config.toml`, and any other attempt would go to a
 * local proxy that refuses and records it.
 * @module
 */
import assert from "node:assert/strict";
import { makeHarness, upstreamEnv } from "../harness.ts";
import { startScriptedUpstream } from "../fakes/scripted_upstream.ts";
import type { LlmWire } from "../fakes/scripted_conversation.ts";
import { clientTest, realClients } from "./real_clients.ts";
import { runCodexCat, startProxyTrap } from "./codex_home.ts";

/** One line of `codex exec --json` output. */
interface ExecEvent {
  type: string;
  item?: {
    type: string;
    text?: string;
    command?: string;
    aggregated_output?: string;
    exit_code?: number | null;
  };
}

interface Case {
  model: string;
  /** The wire the scripted upstream must have been spoken to in. */
  wire: LlmWire;
  upstreamPath: string;
  /** The model id the upstream must receive (aliases resolved). */
  upstreamModel: string;
}

async function roundTrip(
  codex: string,
  { model, wire, upstreamPath, upstreamModel }: Case,
) {
  const upstream = startScriptedUpstream();
  const h = await makeHarness({
    demo: false,
    env: upstreamEnv(upstream.url),
  });
  const seen: string[] = [];
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: () => {},
  }, (req) => {
    seen.push(`${req.method} ${new URL(req.url).pathname}`);
    return h.app.fetch(req);
  });
  const trap = startProxyTrap();
  const home = await Deno.makeTempDir({ prefix: "gatehouse-codex-" });
  try {
    const root = `http://127.0.0.1:${server.addr.port}`;
    const { run, secret, file } = await runCodexCat(codex, {
      home,
      model,
      gatewayUrl: root,
      key: h.key,
      trapEnv: trap.env,
      secretPrefix: `the lighthouse keeper is ${model}`,
      timeoutMs: 120_000,
    });

    assert.equal(
      run.code,
      0,
      `codex exited ${run.code}: ${run.stderr}\n${run.stdout}`,
    );
    assert.ok(
      run.stdout.includes(secret),
      `stdout lacks the secret line:\n${run.stdout}`,
    );
    const events = run.stdout.split("\n").filter((l) => l.trim() !== "").map((
      l,
    ) => JSON.parse(l) as ExecEvent);
    const items = events.flatMap((e) => e.type === "item.completed" && e.item ? [e.item] : []);
    const command = items.find((i) => i.type === "command_execution");
    assert.ok(command, `no command ran: ${run.stdout}`);
    assert.ok(
      command.command?.includes(`cat ${file}`),
      `ran ${command.command}`,
    );
    assert.equal(command.exit_code, 0);
    assert.equal(command.aggregated_output, `${secret}\nsecond line\n`);
    const answer = items.filter((i) => i.type === "agent_message").at(-1);
    assert.match(
      answer?.text ?? "",
      /^Tool said: /,
      `final answer: ${answer?.text}`,
    );
    assert.equal(events.at(-1)?.type, "turn.completed");

    assert.deepEqual(
      upstream.steps.map((s) => [s.wire, s.step.kind]),
      [[wire, "tool_call"], [wire, "text"]],
      "the upstream saw a tool call turn, then a text turn, in its own wire",
    );
    const first = upstream.steps[0]?.step;
    assert.ok(
      first?.kind === "tool_call" && first.name === "exec_command",
      "exec_command call",
    );
    assert.deepEqual(first.input, { cmd: `cat ${file}` });
    const llm = upstream.requests.filter((r) => r.method === "POST");
    assert.ok(
      llm.every((r) => r.path === upstreamPath),
      `paths ${llm.map((r) => r.path)}`,
    );
    assert.deepEqual(llm.map((r) => (r.body as { model?: string }).model), [
      upstreamModel,
      upstreamModel,
    ]);
    assert.ok(
      !llm[0]!.rawBody.includes(secret),
      "the secret is not known before the command",
    );
    assert.ok(
      llm[1]!.rawBody.includes(secret),
      "the command's output went back upstream",
    );

    assert.deepEqual(
      seen,
      ["POST /responses", "POST /responses"],
      "Codex used plain HTTP",
    );
    assert.deepEqual(trap.attempts, [], "Codex tried to reach the network");
  } finally {
    await trap.close();
    await server.shutdown();
    await upstream.close();
    await h.close();
    await Deno.remove(home, { recursive: true });
  }
}

const clients = await realClients();
clientTest(
  clients,
  "Codex, GPT-5.5 behind an OpenAI Responses upstream (passthrough)",
  ({ codex }) =>
    roundTrip(codex, {
      model: "gpt-5.5",
      wire: "responses",
      upstreamPath: "/v1/responses",
      upstreamModel: "gpt-5.5-large",
    }),
);
clientTest(
  clients,
  "Codex, GPT-5 behind a chat-only upstream (Responses ↔ chat)",
  ({ codex }) =>
    roundTrip(codex, {
      model: "gpt-5",
      wire: "chat",
      upstreamPath: "/v1/chat/completions",
      upstreamModel: "gpt-5",
    }),
);
clientTest(
  clients,
  "Codex, Claude Sonnet 5 behind the Anthropic upstream (Responses ↔ messages)",
  ({ codex }) =>
    roundTrip(codex, {
      model: "claude-sonnet-5",
      wire: "anthropic",
      upstreamPath: "/v1/messages",
      upstreamModel: "claude-sonnet-5",
    }),
);
