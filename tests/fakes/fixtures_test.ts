import assert from "node:assert/strict";
import {
  chunkType,
  FIXTURE_FOLDERS,
  FIXTURE_ROOT,
  fixtureKinds,
  isJsonLine,
  listFixtures,
  loadChunks,
  loadJson,
  splitStreams,
} from "./fixtures.ts";

Deno.test("listFixtures: names without extensions, every file of every folder", async () => {
  for (const folder of FIXTURE_FOLDERS) {
    const names = await listFixtures(folder);
    const files: string[] = [];
    for await (const entry of Deno.readDir(new URL(folder, FIXTURE_ROOT))) {
      files.push(entry.name);
    }
    const expected = new Set(
      files.filter((f) => f.endsWith(".json") || f.endsWith(".chunks.txt"))
        .map((f) => f.replace(/\.chunks\.txt$|\.json$/, "")),
    );
    assert.deepEqual(names, [...expected].sort(), folder);
  }
});

Deno.test("loadChunks / loadJson / fixtureKinds on recorded files", async () => {
  const lines = await loadChunks("anthropic-messages", "anthropic-text");
  const raw = await Deno.readTextFile(
    new URL("anthropic-messages/anthropic-text.chunks.txt", FIXTURE_ROOT),
  );
  assert.equal(lines.join("\n"), raw.trimEnd());
  assert.equal(lines.length, 12);
  assert.equal(chunkType(lines[0] ?? ""), "message_start");
  assert.ok(lines.every(isJsonLine));
  const chat = await loadChunks("openai-chat", "deepseek-tool-call");
  assert.equal(chunkType(chat[0] ?? ""), undefined);
  const body = await loadJson("openai-responses", "openai-reasoning-encrypted-content.1");
  assert.equal((body as { object: string }).object, "response");
  assert.deepEqual(await fixtureKinds("anthropic-messages", "anthropic-refusal"), {
    chunks: true,
    json: true,
  });
  assert.deepEqual(await fixtureKinds("openai-images", "openai-image"), {
    chunks: false,
    json: true,
  });
  await assert.rejects(loadChunks("openai-chat", "no-such-fixture"), Deno.errors.NotFound);
});

Deno.test("chunkType reads the type of the recorded lines that are not valid JSON", async () => {
  const lines = await loadChunks("openai-responses", "parallel-tool-call-wrapper.1");
  const broken = lines.filter((line) => !isJsonLine(line));
  assert.equal(broken.length, 2);
  assert.deepEqual(broken.map(chunkType), ["response.created", "response.completed"]);
});

Deno.test("splitStreams: one stream per response; the encrypted-content run holds four", async () => {
  const run = await loadChunks("openai-responses", "openai-reasoning-encrypted-content.1");
  const parts = splitStreams(run);
  assert.deepEqual(parts.map((p) => chunkType(p[0] ?? "")), Array(4).fill("response.created"));
  assert.deepEqual(
    parts.map((p) => chunkType(p.at(-1) ?? "")),
    Array(4).fill("response.completed"),
  );
  assert.equal(parts.flat().length, run.length);
  for (const folder of FIXTURE_FOLDERS.filter((f) => f !== "openai-images")) {
    for (const name of await listFixtures(folder)) {
      if (!(await fixtureKinds(folder, name)).chunks) continue;
      const count = splitStreams(await loadChunks(folder, name)).length;
      assert.equal(count, name === "openai-reasoning-encrypted-content.1" ? 4 : 1, name);
    }
  }
});
