/**
 * A real `main.ts --demo`, started with the `start` task's permissions (`--allow-ffi` among
 * them): after a burst of requests has come and gone, it gives the memory it freed back to the
 * system and says so (`cluster/memory_trim.ts`; a 1 MiB threshold, so any burst is enough).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIRST_KEY, startGateway } from "../governance/gateway_process.ts";

const TRIMMED = /memory trimmed after the load fell.*rssBeforeMb=(\d+) rssAfterMb=(\d+)/;
const BURST = 32;

Deno.test({
  name: "memory trim: a gateway gives its freed memory back once a burst is over",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const gateway = await startGateway(join(dir, "gatehouse.db"), {
      env: { GATEHOUSE_MEMORY_TRIM_MB: "1", GATEHOUSE_QUIET: "", GATEHOUSE_MOCK_DELAY_MS: "5" },
    });
    try {
      const admin = FIRST_KEY.exec(gateway.output())?.[1];
      assert.ok(admin, gateway.output());
      assert.doesNotMatch(gateway.output(), /memory trim off/);
      // Prompts of 256 KiB each, all in flight together.
      const prompt = "lorem ipsum ".repeat(256 * 1024 / 12);
      const answers = await Promise.all(
        Array.from({ length: BURST }, () =>
          fetch(`${gateway.url}/v1/chat/completions`, {
            method: "POST",
            headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
            body: JSON.stringify({
              model: "gpt-5",
              stream: true,
              messages: [{ role: "user", content: prompt }],
            }),
          }).then(async (response) => ({ status: response.status, text: await response.text() }))),
      );
      for (const answer of answers) assert.equal(answer.status, 200, answer.text.slice(0, 300));
      const deadline = Date.now() + 10_000;
      let trimmed: RegExpExecArray | null = null;
      while (trimmed === null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        trimmed = TRIMMED.exec(gateway.output());
      }
      assert.ok(trimmed, `no trim was logged:\n${gateway.output()}`);
      assert.ok(
        Number(trimmed[2]) < Number(trimmed[1]),
        `the trim gave nothing back: ${trimmed[0]}`,
      );
    } finally {
      await gateway.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
