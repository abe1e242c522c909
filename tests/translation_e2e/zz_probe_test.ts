import { startRig, startScriptedUpstream } from "./helpers.ts";
import { anthropicAnswer, chatAnswer } from "./scripted_answers.ts";
const up = startScriptedUpstream();
const rig = await startRig(up.url);
Deno.test("probe", async () => {
  for (const stream of [false, true]) {
    up.answer((r) =>
      chatAnswer(r.body as Record<string, unknown>, {
        calls: [{ id: "call_x", name: "noargs", arguments: "" }],
        finishReason: "tool_calls",
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      })
    );
    const p = {
      model: "gpt-5",
      max_tokens: 10,
      messages: [{ role: "user" as const, content: "Hi" }],
    };
    const m = stream
      ? await rig.anthropic.messages.stream(p).finalMessage()
      : await rig.anthropic.messages.create(p);
    console.log(stream, JSON.stringify(m.content));
    up.answer((r) =>
      anthropicAnswer(r.body as Record<string, unknown>, {
        blocks: [{ type: "text", text: "héllo ✓" }],
        stopReason: "end_turn",
        usage: { input_tokens: 3, output_tokens: 2 },
      })
    );
    const r = await rig.post("/v1/chat/completions", {
      model: "claude-sonnet-5",
      stream,
      messages: [{ role: "user", content: "Hi" }],
      logprobs: true,
      seed: 1,
      top_logprobs: 2,
    });
    console.log(r.headers.get("x-gatehouse-warnings"));
    console.log(await r.text());
  }
  const u = await fetch(`${rig.url}/v1/usage?group_by=model`, {
    headers: { authorization: `Bearer ${rig.harness.key}` },
  });
  console.log(JSON.stringify(await u.json()));
  await rig.close();
  await up.close();
});
