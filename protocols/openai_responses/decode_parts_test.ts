import assert from "node:assert/strict";
import { GatewayError } from "../../core/errors.ts";
import { decodeParts, parseDataUrl } from "./decode_parts.ts";

Deno.test("parseDataUrl: base64 data URLs only", () => {
  assert.deepEqual(parseDataUrl("data:image/png;base64,AAA"), {
    mediaType: "image/png",
    data: "AAA",
  });
  assert.deepEqual(parseDataUrl("data:application/pdf;name=a.pdf;base64,QQ=="), {
    mediaType: "application/pdf",
    data: "QQ==",
  });
  assert.equal(parseDataUrl("https://x/y.png"), null);
  assert.equal(parseDataUrl("data:text/plain,hello"), null);
});

Deno.test("decodeParts: images and files from every source", () => {
  const { value, warnings } = decodeParts([
    { type: "input_image", image_url: "data:image/jpeg;base64,/9j/", detail: "high" },
    { type: "input_image", file_id: "file_1", detail: "original" },
    { type: "input_file", file_data: "data:application/pdf;base64,JVBE", filename: "a.pdf" },
    { type: "input_file", file_data: "JVBE", filename: "notes.txt" },
    { type: "input_file", file_url: "https://x/doc.pdf" },
    { type: "input_file", file_id: "file_2" },
    { type: "refusal", refusal: "no" },
    { type: "output_text", text: "out" },
  ], "input.0.content");
  assert.deepEqual(value, [
    {
      type: "image",
      source: { kind: "base64", mediaType: "image/jpeg", data: "/9j/" },
      detail: "high",
    },
    { type: "image", source: { kind: "file_id", fileId: "file_1" } },
    {
      type: "document",
      source: { kind: "base64", mediaType: "application/pdf", data: "JVBE" },
      filename: "a.pdf",
    },
    {
      type: "document",
      source: { kind: "base64", mediaType: "text/plain", data: "JVBE" },
      filename: "notes.txt",
    },
    { type: "document", source: { kind: "url", url: "https://x/doc.pdf" } },
    { type: "document", source: { kind: "file_id", fileId: "file_2" } },
    { type: "text", text: "no" },
    { type: "text", text: "out" },
  ]);
  assert.deepEqual(warnings.map((w) => w.field), ["input.0.content.1.detail"]);
});

Deno.test("decodeParts: audio and source-less media are refused naming the part", () => {
  for (
    const [part, param] of [
      [{ type: "input_audio", input_audio: { data: "x", format: "wav" } }, "p.0"],
      [{ type: "input_image" }, "p.0"],
      [{ type: "input_file", filename: "a.pdf" }, "p.0"],
    ] as const
  ) {
    assert.throws(() => decodeParts([part], "p"), (e) => {
      assert.ok(e instanceof GatewayError);
      assert.equal(e.status, 400);
      assert.equal(e.param, param);
      return true;
    });
  }
});

Deno.test("decodeParts: unknown part types are dropped with a warning", () => {
  const { value, warnings } = decodeParts([{ type: "input_video" }], "x");
  assert.deepEqual(value, []);
  assert.deepEqual(warnings.map((w) => w.field), ["x.0.type"]);
});
