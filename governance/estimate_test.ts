import assert from "node:assert/strict";
import {
  DEFAULT_OUTPUT_RESERVE,
  estimateInputTokens,
  expectedUse,
  imageCount,
  IMAGES_ROUTE,
  OUTPUT_RESERVE_CAP,
  outputReserve,
  requestedOutput,
} from "./estimate.ts";
import { modelWith } from "./testing.ts";

Deno.test("estimate: input tokens are ceil(bytes / 4), the JSON length without a size", () => {
  assert.equal(estimateInputTokens(4_000, {}), 1_000);
  assert.equal(estimateInputTokens(4_001, {}), 1_001);
  assert.equal(estimateInputTokens(0, {}), 0);
  const body = { model: "m", messages: [{ role: "user", content: "hello" }] };
  assert.equal(estimateInputTokens(null, body), Math.ceil(JSON.stringify(body).length / 4));
});

Deno.test("estimate: a stream reserves min(requested or 1024, model max, 4096)", () => {
  assert.equal(OUTPUT_RESERVE_CAP, 4096);
  assert.equal(DEFAULT_OUTPUT_RESERVE, 1024);
  const stream = { stream: true };
  assert.equal(outputReserve(stream), 1024);
  assert.equal(outputReserve({ ...stream, max_tokens: 200 }), 200);
  assert.equal(outputReserve({ ...stream, max_tokens: 128_000 }), 4096, "an agent's 128k");
  assert.equal(outputReserve({ ...stream, max_completion_tokens: 32_000 }), 4096);
  assert.equal(outputReserve({ ...stream, max_output_tokens: 3_000 }), 3_000);
  assert.equal(outputReserve({ ...stream, max_tokens: 64_000 }, 2_048), 2_048);
  assert.equal(outputReserve(stream, 512), 512);
  assert.equal(requestedOutput({ max_tokens: "lots" }), null);
  assert.equal(requestedOutput({ max_tokens: 10, max_completion_tokens: 20 }), 10);
});

Deno.test("estimate: a whole answer reserves all it may produce (it cannot be cut)", () => {
  assert.equal(outputReserve({ max_tokens: 128_000 }, 128_000), 128_000);
  assert.equal(outputReserve({ max_tokens: 200 }, 128_000), 200);
  assert.equal(outputReserve({}, 64_000), 64_000, "no limit asked: the model's maximum");
  assert.equal(outputReserve({ max_tokens: 64_000 }, 2_048), 2_048);
  assert.equal(outputReserve({ max_tokens: 9_000 }), 9_000, "above the stream cap");
  assert.equal(outputReserve({}), 1024, "neither known");
  assert.equal(outputReserve({ stream: false, max_tokens: 50_000 }, 100_000), 50_000);
});

Deno.test("estimate: expected cost of a chat request and of an image request", () => {
  const chat = expectedUse(modelWith("m", { input: 2, output: 10 }), "/v1/chat/completions", {
    max_tokens: 100_000,
    stream: true,
  }, 40_000);
  assert.equal(chat.inputTokens, 10_000);
  assert.equal(chat.outputTokens, 4096);
  assert.ok(Math.abs(chat.reservationUsd - (10_000 * 2 + 4096 * 10) / 1e6) < 1e-12);
  const images = expectedUse(
    modelWith("img", { input: 5, per_image: 0.04 }),
    IMAGES_ROUTE,
    { n: 3 },
    400,
  );
  assert.equal(images.outputTokens, 0);
  assert.ok(Math.abs(images.reservationUsd - (3 * 0.04 + 100 * 5 / 1e6)) < 1e-12);
  assert.equal(imageCount({}), 1);
  assert.equal(imageCount({ n: 0 }), 1);
});
