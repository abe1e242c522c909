import assert from "node:assert/strict";
import type { Warning } from "../../core/convert.ts";
import {
  documentBlock,
  imageBlock,
  reasoningBlock,
  textBlock,
  toolIdMapper,
  toolResultBlock,
  toolUseBlock,
} from "./encode_parts.ts";

Deno.test("toolIdMapper keeps valid ids, cleans others and pairs missing ones in order", () => {
  const ids = toolIdMapper();
  assert.equal(ids.call("call_abc-1"), "call_abc-1");
  assert.equal(ids.call("fc.1:2"), "fc_1_2");
  assert.equal(ids.result("fc.1:2"), "fc_1_2");
  assert.equal(ids.call(""), "toolu_gatehouse_0");
  assert.equal(ids.call(""), "toolu_gatehouse_1");
  assert.equal(ids.result(""), "toolu_gatehouse_0");
  assert.equal(ids.result(""), "toolu_gatehouse_1");
});

Deno.test("textBlock keeps cache_control and drops empty text with a warning", () => {
  const warnings: Warning[] = [];
  assert.deepEqual(
    textBlock({ type: "text", text: "a", cacheControl: { type: "ephemeral" } }, "p", warnings),
    {
      type: "text",
      text: "a",
      cache_control: { type: "ephemeral" },
    },
  );
  assert.equal(textBlock({ type: "text", text: "" }, "p", warnings), null);
  assert.deepEqual(warnings.map((w) => w.field), ["p"]);
});

Deno.test("imageBlock maps base64 and url and drops file ids and detail with warnings", () => {
  const warnings: Warning[] = [];
  assert.deepEqual(
    imageBlock(
      { type: "image", source: { kind: "base64", mediaType: "image/png", data: "AA" } },
      "p",
      warnings,
    ),
    { type: "image", source: { type: "base64", media_type: "image/png", data: "AA" } },
  );
  assert.deepEqual(
    imageBlock(
      { type: "image", source: { kind: "url", url: "https://x/i.png" }, detail: "high" },
      "p",
      warnings,
    ),
    { type: "image", source: { type: "url", url: "https://x/i.png" } },
  );
  assert.equal(
    imageBlock({ type: "image", source: { kind: "file_id", fileId: "file-1" } }, "q", warnings),
    null,
  );
  assert.deepEqual(warnings.map((w) => w.field), ["p.detail", "q.source"]);
});

Deno.test("documentBlock sends PDF and plain text, decoding base64 text", () => {
  const warnings: Warning[] = [];
  assert.deepEqual(
    documentBlock(
      {
        type: "document",
        source: { kind: "base64", mediaType: "application/pdf", data: "JVBE" },
        filename: "a.pdf",
      },
      "p",
      warnings,
    ),
    {
      type: "document",
      source: { type: "base64", media_type: "application/pdf", data: "JVBE" },
      title: "a.pdf",
    },
  );
  const utf8 = btoa(String.fromCharCode(...new TextEncoder().encode("héllo ✓")));
  assert.deepEqual(
    documentBlock(
      { type: "document", source: { kind: "base64", mediaType: "text/plain", data: utf8 } },
      "p",
      warnings,
    )
      ?.source,
    { type: "text", media_type: "text/plain", data: "héllo ✓" },
  );
  assert.deepEqual(
    documentBlock(
      { type: "document", source: { kind: "base64", mediaType: "text/plain", data: "aGk=" } },
      "p",
      warnings,
    )
      ?.source,
    { type: "text", media_type: "text/plain", data: "hi" },
  );
  assert.equal(warnings.length, 0);
  assert.deepEqual(
    documentBlock(
      {
        type: "document",
        source: { kind: "text", mediaType: "text/markdown", text: "# t" },
        title: "T",
        filename: "t.md",
      },
      "m",
      warnings,
    ),
    {
      type: "document",
      source: { type: "text", media_type: "text/plain", data: "# t" },
      title: "T",
    },
  );
  assert.deepEqual(
    documentBlock(
      { type: "document", source: { kind: "url", url: "https://x/a.pdf" } },
      "u",
      warnings,
    ),
    { type: "document", source: { type: "url", url: "https://x/a.pdf" } },
  );
  assert.equal(
    documentBlock(
      { type: "document", source: { kind: "base64", mediaType: "text/csv", data: "" } },
      "c",
      warnings,
    ),
    null,
  );
  assert.equal(
    documentBlock({ type: "document", source: { kind: "file_id", fileId: "f" } }, "f", warnings),
    null,
  );
  assert.deepEqual(warnings.map((w) => w.field), [
    "m.source.mediaType",
    "m.filename",
    "c.source",
    "f.source",
  ]);
});

Deno.test("reasoningBlock sends only Anthropic-signed reasoning", () => {
  const warnings: Warning[] = [];
  assert.deepEqual(
    reasoningBlock(
      { type: "reasoning", text: "t", token: { vendor: "anthropic", value: "sig" } },
      "a",
      warnings,
    ),
    { type: "thinking", thinking: "t", signature: "sig" },
  );
  assert.deepEqual(
    reasoningBlock(
      {
        type: "reasoning",
        text: "",
        redacted: true,
        token: { vendor: "anthropic", value: "opaque" },
      },
      "a",
      warnings,
    ),
    { type: "redacted_thinking", data: "opaque" },
  );
  assert.equal(
    reasoningBlock(
      { type: "reasoning", text: "t", token: { vendor: "openai", value: "enc" } },
      "o",
      warnings,
    ),
    null,
  );
  assert.equal(reasoningBlock({ type: "reasoning", text: "plain" }, "n", warnings), null);
  assert.deepEqual(warnings.map((w) => w.field), ["o", "n"]);
  assert.match(warnings[0]!.message, /^a reasoning token issued by openai cannot be sent/);
});

Deno.test("toolUseBlock shortens long names and wraps custom input", () => {
  const warnings: Warning[] = [];
  const long = "mcp__a_server_with_a_rather_long_name__and_a_tool_with_a_long_name_too";
  const block = toolUseBlock(
    { type: "tool_call", id: "c1", name: long, arguments: '{"x":1}', kind: "function" },
    "c1",
    "p",
    warnings,
  );
  assert.equal(block.name.length, 64);
  assert.deepEqual(block.input, { x: 1 });
  assert.deepEqual(
    toolUseBlock(
      { type: "tool_call", id: "c2", name: "apply_patch", arguments: "*** Begin", kind: "custom" },
      "c2",
      "p",
      warnings,
    )
      .input,
    { input: "*** Begin" },
  );
  toolUseBlock(
    { type: "tool_call", id: "c3", name: "f", arguments: "{bad", kind: "function" },
    "c3",
    "q",
    warnings,
  );
  assert.deepEqual(warnings.map((w) => w.field), ["q.arguments"]);
});

Deno.test("toolResultBlock maps content and the error flag", () => {
  const warnings: Warning[] = [];
  assert.deepEqual(
    toolResultBlock(
      {
        type: "tool_result",
        toolCallId: "c1",
        isError: true,
        content: [{ type: "text", text: "boom" }, { type: "text", text: "" }],
      },
      "c1",
      "r",
      warnings,
    ),
    {
      type: "tool_result",
      tool_use_id: "c1",
      content: [{ type: "text", text: "boom" }],
      is_error: true,
    },
  );
  assert.deepEqual(
    toolResultBlock({ type: "tool_result", toolCallId: "c2", content: [] }, "c2", "r", warnings),
    {
      type: "tool_result",
      tool_use_id: "c2",
    },
  );
  assert.deepEqual(warnings.map((w) => w.field), ["r.content.1"]);
});
