/**
 * Issue #15: the real Codex CLI, on a key whose `rpm` window is full when it starts, gets a 429
 * on its first request, backs off as the refusal says, and still completes its shell round trip
 * (`cat` a file, send the output back, answer `Tool said: ...`).
 *
 * The window is filled without waiting a minute (see `rate_limit_rig.ts`): its first
 * `POST /responses` is refused with `retry-after: 2`, the `x-ratelimit-*` headers and an OpenAI
 * `rate_limit_exceeded` body, and the window is empty again 2 s later. Codex retries an HTTP 429
 * only when it carries `retry-after`, waiting exactly that ("Reconnecting... 1/5" on its event
 * stream); its next request (the command's output) fits in the fresh window.
 *
 * Codex runs offline as in codex_test.ts: its calls home are switched off, and any other attempt
 * would go to a local proxy that refuses and records it.
 * @module
 */
import assert from "node:assert/strict";
import { startScriptedUpstream } from "../fakes/scripted_upstream.ts";
import { clientTest, realClients } from "./real_clients.ts";
import { runCodexCat, startProxyTrap } from "./codex_home.ts";
import { assertBackedOffOnce, startRateLimitRig } from "./rate_limit_rig.ts";

/** Requests per minute: the filled window's size, and room for Codex's turns after it. */
const RPM = 3;
const MODEL = "gpt-5.5";

/** One line of `codex exec --json` output. */
interface ExecEvent {
  type: string;
  message?: string;
  item?: {
    type: string;
    text?: string;
    aggregated_output?: string;
    exit_code?: number | null;
  };
}

async function backsOffAndFinishes(codex: string) {
  const upstream = startScriptedUpstream();
  const rig = await startRateLimitRig(upstream, {
    rpm: RPM,
    filler: {
      path: "/v1/responses",
      body: { model: MODEL, input: "fill the window" },
    },
    trigger: "/responses",
  });
  const trap = startProxyTrap();
  const home = await Deno.makeTempDir({ prefix: "gatehouse-codex-429-" });
  try {
    const { run, secret } = await runCodexCat(codex, {
      home,
      model: MODEL,
      gatewayUrl: rig.url,
      key: rig.key,
      trapEnv: trap.env,
      secretPrefix: "the lighthouse keeper waited",
      timeoutMs: 60_000,
    });

    assert.equal(
      rig.fillError,
      null,
      `filling the window failed: ${rig.fillError}`,
    );
    assert.equal(
      run.code,
      0,
      `codex exited ${run.code}: ${run.stderr}\n${run.stdout}`,
    );
    const events = run.stdout.split("\n").filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as ExecEvent);
    const items = events.flatMap((e) => e.type === "item.completed" && e.item ? [e.item] : []);
    const command = items.find((i) => i.type === "command_execution");
    assert.equal(command?.exit_code, 0, `no command ran: ${run.stdout}`);
    assert.equal(command?.aggregated_output, `${secret}\nsecond line\n`);
    const answer = items.filter((i) => i.type === "agent_message").at(-1);
    assert.match(
      answer?.text ?? "",
      /^Tool said: /,
      `final answer: ${answer?.text}`,
    );
    assert.equal(events.at(-1)?.type, "turn.completed");
    // Codex reported the 429 and that it was retrying.
    const retries = events.filter((e) => e.type === "error").map((e) => e.message ?? "");
    assert.equal(retries.length, 1, `error events: ${retries.join(" | ")}`);
    assert.match(
      retries[0]!,
      /^Reconnecting\.\.\. 1\/\d+ .*429 Too Many Requests/,
    );

    const { refused } = assertBackedOffOnce(rig, {
      path: "/responses",
      route: "/v1/responses",
      remainingHeader: "x-ratelimit-remaining-requests",
    });
    assert.equal(refused.headers["x-ratelimit-limit-requests"], String(RPM));
    const body = JSON.parse(refused.error ?? "null");
    assert.deepEqual(
      [body?.error?.type, body?.error?.code],
      ["rate_limit_error", "rate_limit_exceeded"],
      `the OpenAI envelope: ${refused.error}`,
    );
    assert.match(
      body.error.message,
      new RegExp(`${RPM} requests per minute \\(rpm\\).*Retry in 2 s`),
    );

    // The refusal never reached the upstream: after the filler's steps come exactly the tool
    // call and the answer, and Codex's second request carried the command's output.
    const steps = upstream.steps.slice(rig.fillerSteps).map((s) => `${s.wire}:${s.step.kind}`);
    assert.deepEqual(steps, ["responses:tool_call", "responses:text"]);
    assert.equal(rig.fillerSteps, RPM);
    const llm = upstream.requests.filter((r) => r.method === "POST").slice(RPM);
    assert.ok(
      llm[1]?.rawBody.includes(secret),
      "the command's output went back upstream",
    );
    assert.deepEqual(trap.attempts, [], "Codex tried to reach the network");
  } finally {
    await trap.close();
    await rig.close();
    await upstream.close();
    await Deno.remove(home, { recursive: true });
  }
}

const clients = await realClients();
clientTest(
  clients,
  "Codex, rpm window full at start: one 429, waits retry-after, finishes the round trip",
  ({ codex }) => backsOffAndFinishes(codex),
);
