import assert from "node:assert/strict";
import { forwardBody, modelValueRange } from "./forward_body.ts";

const forward = (text: string, model = "up-1") =>
  forwardBody(text, JSON.parse(text) as Record<string, unknown>, model);

Deno.test("forwardBody: only the model's value changes; every other byte is the client's", () => {
  const text = '{ "messages": [{"role":"user","content":"say \\"model\\": \\u00e9"}],\n' +
    '  "model" :  "gpt-5",  "temperature": 1.0, "metadata": {"note": "model"} }';
  const out = forward(text);
  assert.equal(
    out,
    '{ "messages": [{"role":"user","content":"say \\"model\\": \\u00e9"}],\n' +
      '  "model" :  "up-1",  "temperature": 1.0, "metadata": {"note": "model"} }',
  );
  assert.equal(JSON.parse(out).model, "up-1");
});

Deno.test("forwardBody: a model value with escapes is read to its real closing quote", () => {
  const out = forward('{"model":"a\\"b\\\\","stream":false}', 'x"y');
  assert.deepEqual(JSON.parse(out), { model: 'x"y', stream: false });
});

Deno.test("forwardBody: serializes again when the text does not prove where the model is", () => {
  const cases = [
    // a nested model key as well
    '{"model":"gpt-5","metadata":{"model":"gpt-5"}}',
    // the top-level key spelled with an escape: the plain one is nested
    '{"mod\\u0065l":"gpt-5","tools":[{"model":"gpt-5"}]}',
    // duplicate top-level keys (JSON.parse takes the last)
    '{"model":"a","model":"gpt-5"}',
  ];
  // No top-level model: the one nested key is not the body's.
  assert.equal(
    forwardBody('{"metadata":{"model":"x"}}', { metadata: { model: "x" } }, "up-1"),
    '{"metadata":{"model":"x"},"model":"up-1"}',
  );
  // A duplicate stream key must not reach the provider as the client wrote it.
  const twice = '{"model":"gpt-5","stream":true,"stream":false}';
  assert.equal(forwardBody(twice, JSON.parse(twice), "up-1"), '{"model":"up-1","stream":false}');
  for (const text of cases) {
    assert.equal(modelValueRange(text), null, text);
    const body = JSON.parse(text) as Record<string, unknown>;
    assert.equal(forwardBody(text, body, "up-1"), JSON.stringify({ ...body, model: "up-1" }));
  }
  assert.equal(forwardBody(undefined, { model: "a", n: 1 }, "b"), '{"model":"b","n":1}');
});

Deno.test("forwardBody: agrees with re-serializing on every body it rewrites", () => {
  const bodies = [
    { model: "gpt-5", messages: [{ role: "user", content: "hi" }], stream: true },
    { messages: [], model: "claude", max_tokens: 10, system: [{ type: "text", text: "x" }] },
    { model: "m\u00e9", input: "a", tools: [{ type: "function", name: "model" }] },
  ];
  for (const body of bodies) {
    for (const text of [JSON.stringify(body), JSON.stringify(body, null, 2)]) {
      assert.deepEqual(JSON.parse(forward(text)), { ...body, model: "up-1" });
      assert.notEqual(modelValueRange(text), null, text);
    }
  }
});

Deno.test("forwardBody: a member the gateway adds goes first; the client's bytes stay theirs", () => {
  const usage = { key: "stream_options", value: { include_usage: true } };
  const text =
    ' \n{ "model" : "gpt-5", "stream": true, "messages": [{"role":"user","content":"x"}] }';
  const body = JSON.parse(text) as Record<string, unknown>;
  assert.equal(
    forwardBody(text, body, "up-1", usage),
    ' \n{"stream_options":{"include_usage":true}, "model" : "up-1", "stream": true, ' +
      '"messages": [{"role":"user","content":"x"}] }',
  );
  // The client set the member, under any spelling (or as null): serialized again, as before.
  for (
    const sent of [
      '{"model":"gpt-5","stream":true,"stream_options":{"include_usage":false}}',
      '{"model":"gpt-5","stream":true,"stream_options":null}',
      '{"model":"gpt-5","stream":true,"stream_opti\\u006fns":{}}',
    ]
  ) {
    const parsed = JSON.parse(sent) as Record<string, unknown>;
    assert.equal(
      forwardBody(sent, parsed, "up-1", usage),
      JSON.stringify({ ...parsed, model: "up-1", stream_options: usage.value }),
      sent,
    );
  }
  // A text that cannot be used: serialized with the member too.
  const nested = '{"model":"gpt-5","metadata":{"model":"x"}}';
  assert.deepEqual(JSON.parse(forwardBody(nested, JSON.parse(nested), "up-1", usage)), {
    model: "up-1",
    metadata: { model: "x" },
    stream_options: { include_usage: true },
  });
});

Deno.test("forwardBody: an escaped letter of model, in either case and anywhere, means re-serializing", () => {
  for (
    const text of [
      '{"model":"gpt-5","x":"\\u006D"}', // after the model key, upper-case hex
      '{"x":"\\u006f","model":"gpt-5"}', // before it
      '{"model":"gpt-5","stream":true,"x":"\\u0064","stream":true}',
    ]
  ) {
    assert.equal(modelValueRange(text), null, text);
    const body = JSON.parse(text) as Record<string, unknown>;
    assert.equal(forwardBody(text, body, "up-1"), JSON.stringify({ ...body, model: "up-1" }));
  }
  // Other escapes (an accented letter, a quote) do not stop the rewrite.
  assert.equal(
    forward('{"model":"gpt-5","x":"caf\\u00e9 \\"q\\""}'),
    '{"model":"up-1","x":"caf\\u00e9 \\"q\\""}',
  );
});

Deno.test("forwardBody: a large body with non-ASCII text keeps every other character", () => {
  const file = "export const add = (a: number, b: number) => a + b; // é ☕\n".repeat(1_000);
  const body = {
    model: "claude-sonnet",
    messages: [{ role: "user", content: file }, { role: "assistant", content: "read it" }],
    tools: [{ name: "read_file", input_schema: { type: "object", properties: { path: {} } } }],
    stream: true,
  };
  const text = JSON.stringify(body);
  const out = forward(text);
  assert.equal(out, text.replace('"model":"claude-sonnet"', '"model":"up-1"'));
});

Deno.test("forwardBody: with the body's bytes, the answer is those bytes with the same replacement", () => {
  const encoder = new TextEncoder();
  const content = 'größer → 🚀 "quoted" \\ '.repeat(2_000);
  const messages = `"messages": [{"role":"tool","content":${JSON.stringify(content)}}]`;
  const tools = '"tools":[{"type":"function","function":{"name":"é"}}]';
  const clients = {
    first: `{ "model" : "gpt-5", ${messages}, "temperature": 1.0 }`,
    // After the messages, as the Python SDK writes it: counted from the end.
    last: `\n{${messages},"model":"gpt-5",${tools}}`,
    // Between two long parts: the shorter side is itself long.
    middle: `{${messages},"model":"gpt-5","metadata":{"note":${JSON.stringify(content)}}}`,
  };
  const usage = { key: "stream_options", value: { include_usage: true } };
  for (const [place, client] of Object.entries(clients)) {
    const body = JSON.parse(client) as Record<string, unknown>;
    for (const add of [undefined, usage]) {
      const bytes = forwardBody(client, body, "up-ü", add, encoder.encode(client));
      assert.ok(bytes instanceof Uint8Array, `bytes back (model ${place})`);
      // Exactly the text path's answer, encoded.
      assert.deepEqual(bytes, encoder.encode(forwardBody(client, body, "up-ü", add)));
    }
  }
});

Deno.test("forwardBody: bytes whose model value is not where the text puts it are not used", () => {
  // The model near the end: its place in the bytes is counted from there, so bytes one shorter
  // after it put the value's quotes off by one.
  const client = '{"messages":[{"role":"user","content":"hello"}],"model":"gpt-5","n":"é"}';
  const body = JSON.parse(client) as Record<string, unknown>;
  const other = new TextEncoder().encode(client.replace("é", "e"));
  assert.equal(
    forwardBody(client, body, "up-1", undefined, other),
    '{"messages":[{"role":"user","content":"hello"}],"model":"up-1","n":"é"}',
  );
  // A body the text cannot prove is serialized again, bytes or not.
  const nested = '{"model":"gpt-5","metadata":{"model":"gpt-5"}}';
  const bytes = new TextEncoder().encode(nested);
  assert.equal(
    forwardBody(nested, JSON.parse(nested), "up-1", undefined, bytes),
    '{"model":"up-1","metadata":{"model":"gpt-5"}}',
  );
});

Deno.test("forwardBody: a model key nested in a tool's schema (Claude Code's Agent tool) still leaves the text as it is", () => {
  const schema = {
    type: "object",
    properties: {
      model: { type: "string", enum: ["sonnet", "opus"] },
      stream: { type: "boolean" },
    },
  };
  const text = '{"model":"claude-sonnet","messages":[{"role":"user","content":"hi"}],' +
    `"tools":[{"name":"Agent","input_schema":${JSON.stringify(schema)}}],` +
    '"metadata":{"model":"not this one"},"stream":true}';
  const body = JSON.parse(text) as Record<string, unknown>;
  assert.equal(modelValueRange(text), null, "the text alone does not prove it");
  assert.equal(forwardBody(text, body, "up-1"), text.replace('"claude-sonnet"', '"up-1"'));
  // The model after the nested ones.
  const last = '{"tools":[{"input_schema":{"properties":{"model":{"type":"string"}}}}],' +
    '"metadata":{"model":"x"},"model" : "claude-sonnet"}';
  assert.equal(
    forwardBody(last, JSON.parse(last), "up-1"),
    last.replace('"claude-sonnet"', '"up-1"'),
  );
  // And the bytes path takes it too.
  const bytes = new TextEncoder().encode(text);
  assert.deepEqual(
    forwardBody(text, body, "up-1", undefined, bytes),
    new TextEncoder().encode(text.replace('"claude-sonnet"', '"up-1"')),
  );
});

Deno.test("forwardBody: more model or stream tokens than objects holding them means re-serializing", () => {
  const cases = [
    // a nested model with the top-level's own value: which token is the top-level's is unknown
    '{"model":"gpt-5","metadata":{"model":"gpt-5"},"n":1}',
    // a duplicate top-level model beside a nested one (the parse keeps the last)
    '{"model":"a","metadata":{"model":"x"},"model":"gpt-5"}',
    // a duplicate inside a nested object: one token too many
    '{"model":"gpt-5","metadata":{"model":"x","model":"y"}}',
    // a key ending in an escaped quote before "model": a token that is no model key
    '{"model":"gpt-5","meta":{"a\\"model":1,"model":"x"}}',
    // two top-level stream keys beside a nested one
    '{"model":"gpt-5","stream":true,"tools":[{"stream":1}],"stream":false}',
  ];
  for (const text of cases) {
    const body = JSON.parse(text) as Record<string, unknown>;
    assert.equal(forwardBody(text, body, "up-1"), JSON.stringify({ ...body, model: "up-1" }), text);
  }
  // One stream key per object is no duplicate.
  const streams = '{"model":"gpt-5","tools":[{"stream":1}],"stream":false}';
  assert.equal(forwardBody(streams, JSON.parse(streams), "up-1"), streams.replace("gpt-5", "up-1"));
});
