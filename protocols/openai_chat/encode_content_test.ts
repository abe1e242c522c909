import assert from "node:assert/strict";
import type { Warning } from "../../core/convert.ts";
import { GatewayError } from "../../core/errors.ts";
import { compactContent, encodeUserPart } from "./encode_content.ts";

const openai = { compat: false, providerName: "openai" };
const compat = { compat: true, providerName: "ollama" };
const pdf = {
  type: "document" as const,
  source: { kind: "base64" as const, mediaType: "application/pdf", data: "JVBE" },
  title: "Spec",
};

Deno.test("encodeUserPart turns images into image_url parts with data URLs", () => {
  const warnings: Warning[] = [];
  assert.deepEqual(
    encodeUserPart(
      {
        type: "image",
        source: { kind: "base64", mediaType: "image/png", data: "iVBO" },
        detail: "high",
      },
      "p",
      compat,
      warnings,
    ),
    { type: "image_url", image_url: { url: "data:image/png;base64,iVBO", detail: "high" } },
  );
  assert.deepEqual(
    encodeUserPart(
      { type: "image", source: { kind: "url", url: "https://x/y.png" } },
      "p",
      compat,
      warnings,
    ),
    { type: "image_url", image_url: { url: "https://x/y.png" } },
  );
  assert.throws(
    () =>
      encodeUserPart(
        { type: "image", source: { kind: "file_id", fileId: "f" } },
        "p",
        openai,
        warnings,
      ),
    /image by file id/,
  );
  assert.deepEqual(warnings, []);
});

Deno.test("encodeUserPart sends PDFs to OpenAI as file parts", () => {
  const warnings: Warning[] = [];
  assert.deepEqual(encodeUserPart(pdf, "p", openai, warnings), {
    type: "file",
    file: { filename: "Spec", file_data: "data:application/pdf;base64,JVBE" },
  });
  assert.deepEqual(
    encodeUserPart(
      { type: "document", source: { kind: "file_id", fileId: "file-1" } },
      "p",
      openai,
      warnings,
    ),
    { type: "file", file: { file_id: "file-1" } },
  );
  assert.throws(
    () =>
      encodeUserPart(
        { type: "document", source: { kind: "url", url: "https://x/a.pdf" } },
        "p",
        openai,
        warnings,
      ),
    /not URLs/,
  );
});

Deno.test("encodeUserPart refuses PDFs for compat servers with a 400 naming the provider", () => {
  assert.throws(
    () => encodeUserPart(pdf, "messages.0.content.1", compat, []),
    (e: GatewayError) => {
      assert.equal(e.status, 400);
      assert.equal(e.param, "messages.0.content.1");
      assert.match(e.message, /ollama/);
      return true;
    },
  );
});

Deno.test("encodeUserPart inlines text documents with a warning", () => {
  const warnings: Warning[] = [];
  const doc = {
    type: "document" as const,
    source: { kind: "text" as const, mediaType: "text/plain", text: "body" },
    title: "Notes",
  };
  assert.deepEqual(encodeUserPart(doc, "p", compat, warnings), {
    type: "text",
    text: "Notes\n\nbody",
  });
  const b64 = {
    type: "document" as const,
    source: { kind: "base64" as const, mediaType: "text/markdown", data: btoa("# hi") },
  };
  assert.deepEqual(encodeUserPart(b64, "q", compat, warnings), { type: "text", text: "# hi" });
  assert.deepEqual(warnings.map((w) => w.field), ["p", "q"]);
});

Deno.test("compactContent uses a string for a lone text part", () => {
  assert.equal(compactContent([{ type: "text", text: "a" }]), "a");
  const two = [{ type: "text" as const, text: "a" }, { type: "text" as const, text: "b" }];
  assert.deepEqual(compactContent(two), two);
});
