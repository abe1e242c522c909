import assert from "node:assert/strict";
import type { Warning } from "../../core/convert.ts";
import { GatewayError } from "../../core/errors.ts";
import {
  decodeDocumentBlock,
  decodeImageBlock,
  decodeTextBlock,
  decodeToolResultBlock,
} from "./decode_blocks.ts";

Deno.test("decodeTextBlock keeps cache_control and warns about citations", () => {
  const warnings: Warning[] = [];
  const part = decodeTextBlock(
    { type: "text", text: "hi", cache_control: { type: "ephemeral" }, citations: [{ x: 1 }] },
    "m.0",
    warnings,
  );
  assert.deepEqual(part, { type: "text", text: "hi", cacheControl: { type: "ephemeral" } });
  assert.deepEqual(warnings.map((w) => w.field), ["m.0.citations"]);
});

Deno.test("decodeTextBlock names the path of a malformed block", () => {
  assert.throws(
    () => decodeTextBlock({ type: "text" }, "messages.2.content.1", []),
    (err: unknown) => {
      assert.ok(err instanceof GatewayError);
      assert.equal(err.param, "messages.2.content.1.text");
      return true;
    },
  );
});

Deno.test("decodeImageBlock maps base64, url and file sources", () => {
  const warnings: Warning[] = [];
  assert.deepEqual(
    decodeImageBlock(
      { type: "image", source: { type: "base64", media_type: "image/png", data: "AAA" } },
      "p",
      warnings,
    ).source,
    { kind: "base64", mediaType: "image/png", data: "AAA" },
  );
  assert.deepEqual(
    decodeImageBlock(
      { type: "image", source: { type: "url", url: "https://x/y.png" } },
      "p",
      warnings,
    )
      .source,
    { kind: "url", url: "https://x/y.png" },
  );
  assert.deepEqual(
    decodeImageBlock(
      {
        type: "image",
        source: { type: "file", file_id: "file_1" },
        cache_control: { type: "ephemeral" },
      },
      "p",
      warnings,
    ).source,
    { kind: "file_id", fileId: "file_1" },
  );
  assert.deepEqual(warnings.map((w) => w.field), ["p.cache_control"]);
  assert.throws(() => decodeImageBlock({ type: "image", source: { type: "ftp" } }, "p", []));
});

Deno.test("decodeDocumentBlock maps pdf, url and text sources with the title", () => {
  const warnings: Warning[] = [];
  assert.deepEqual(
    decodeDocumentBlock(
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: "JVBE" },
        title: "Report",
      },
      "d",
      warnings,
    ),
    {
      type: "document",
      source: { kind: "base64", mediaType: "application/pdf", data: "JVBE" },
      title: "Report",
    },
  );
  assert.deepEqual(
    decodeDocumentBlock(
      { type: "document", source: { type: "url", url: "https://x/a.pdf" } },
      "d",
      warnings,
    )
      .source,
    { kind: "url", url: "https://x/a.pdf" },
  );
  assert.deepEqual(
    decodeDocumentBlock(
      { type: "document", source: { type: "text", media_type: "text/plain", data: "plain" } },
      "d",
      warnings,
    ).source,
    { kind: "text", mediaType: "text/plain", text: "plain" },
  );
  assert.deepEqual(warnings, []);
});

Deno.test("decodeDocumentBlock flattens a content source and warns about what it drops", () => {
  const warnings: Warning[] = [];
  const part = decodeDocumentBlock(
    {
      type: "document",
      source: {
        type: "content",
        content: [{ type: "text", text: "a" }, { type: "image", source: {} }, {
          type: "text",
          text: "b",
        }],
      },
      context: "ctx",
      citations: { enabled: true },
    },
    "d",
    warnings,
  );
  assert.deepEqual(part.source, { kind: "text", mediaType: "text/plain", text: "a\n\nb" });
  assert.deepEqual(warnings.map((w) => w.field), [
    "d.context",
    "d.citations",
    "d.source.content.1",
  ]);
});

Deno.test("decodeToolResultBlock reads string and block content", () => {
  const warnings: Warning[] = [];
  assert.deepEqual(
    decodeToolResultBlock(
      { type: "tool_result", tool_use_id: "t1", content: "ok", is_error: true },
      "r",
      warnings,
    ),
    {
      type: "tool_result",
      toolCallId: "t1",
      content: [{ type: "text", text: "ok" }],
      isError: true,
    },
  );
  const blocks = decodeToolResultBlock(
    {
      type: "tool_result",
      tool_use_id: "t2",
      content: [
        { type: "text", text: "see" },
        { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j" } },
        { type: "search_result", source: "s", title: "t", content: [] },
      ],
    },
    "r",
    warnings,
  );
  assert.deepEqual(blocks.content.map((p) => p.type), ["text", "image"]);
  assert.deepEqual(warnings.map((w) => w.field), ["r.content.2"]);
  assert.deepEqual(
    decodeToolResultBlock({ type: "tool_result", tool_use_id: "t3" }, "r", []).content,
    [],
  );
});
