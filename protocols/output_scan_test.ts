import assert from "node:assert/strict";
import { type DeltaShape, eventEndAfter, runText, scanDeltas } from "./output_scan.ts";

const CHAT: DeltaShape = {
  keys: ["content", "reasoning"],
  nested: { key: "tool_calls", holds: "arguments" },
};
const NAMED: DeltaShape = { events: ["text.delta"] };

/** The pieces `shape` finds in `run`, or null when the scan gives up. */
function scan(run: string, shape: DeltaShape = CHAT): string[] | null {
  const into = runText();
  if (!scanDeltas(run, shape, into)) return null;
  return into.texts.slice(0, into.count);
}

const data = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const chunk = (delta: unknown) => data({ id: "c1", choices: [{ index: 0, delta }] });

Deno.test("scanDeltas: escapes and unicode decode as JSON.parse decodes them", () => {
  const texts = [
    'say "hi"\\ back\n\ttab',
    "caf\u00e9 \u20ac \u{1F600} \u{1F469}\u200d\u{1F4BB}",
    "\ud83d", // a lone surrogate, as JSON.parse gives it
    "</script> \u2028 \u0000 \u001f",
  ];
  for (const text of texts) {
    // JSON.stringify escapes quotes, backslashes and control characters, and keeps the rest raw.
    assert.deepEqual(scan(chunk({ content: text })), [text]);
  }
  // Escaped in the wire as \uXXXX, surrogate pairs included.
  const escaped = 'data: {"choices":[{"delta":{"content":"\\u00e9\\ud83d\\ude00\\"\\\\\\/"}}]}\n\n';
  assert.deepEqual(scan(escaped), ['é😀"\\/']);
});

Deno.test("scanDeltas: key names inside strings are text, not keys", () => {
  const tricky = 'the "delta": {"content": "no"} "content":"x"';
  const run = chunk({ role: "assistant", content: tricky, refusal: null }) +
    data({ note: '"delta":{"content":"nope"}', choices: [] });
  assert.deepEqual(scan(run), [tricky]);
});

Deno.test("scanDeltas: every piece of a multi-event run, in order, with where it ends", () => {
  const run = chunk({ content: "A" }) + ": keep-alive\n\n" +
    chunk({ reasoning: "B", content: "C" }) +
    chunk({ tool_calls: [{ index: 0, function: { name: "f", arguments: '{"x":' } }] }) +
    chunk({ content: null }) + chunk({}) + "data: [DONE]\n\n";
  const into = runText();
  assert.ok(scanDeltas(run, CHAT, into));
  assert.deepEqual(into.texts.slice(0, into.count), ["A", "B", "C", '{"x":']);
  for (let i = 0; i < into.count; i++) {
    const end = into.ends[i]!;
    assert.equal(run[end - 1], '"', "just past the literal");
    assert.equal(run.slice(eventEndAfter(run, end) - 2, eventEndAfter(run, end)), "\n\n");
  }
  // B and C share an event: the same end of event.
  assert.equal(eventEndAfter(run, into.ends[1]!), eventEndAfter(run, into.ends[2]!));
  // Reused: a second run replaces what the first found.
  into.count = 0;
  assert.ok(scanDeltas(chunk({ content: "D" }), CHAT, into));
  assert.deepEqual(into.texts.slice(0, into.count), ["D"]);
});

Deno.test("scanDeltas: spaces around colons and CRLF line ends are read", () => {
  const spaced =
    'data: {"choices": [{"delta" : { "content" :\t"hi" , "role": "assistant" }}]}\r\n\r\n';
  assert.deepEqual(scan(spaced), ["hi"]);
});

Deno.test("scanDeltas: gives up on what it does not read exactly", () => {
  // Data continued on a second line, between key and value.
  assert.equal(scan('data: {"choices":[{"delta":\ndata: {"content":"hi"}}]}\n\n'), null);
  assert.equal(scan('data: {"choices":[{"delta":{"content":\ndata: "hi"}}]}\n\n'), null);
  // An escaped key, a bad escape, a raw control character, an unterminated literal.
  assert.equal(scan('data: {"choices":[{"delta":{"\\u0063ontent":"hi"}}]}\n\n'), null);
  assert.equal(scan('data: {"choices":[{"delta":{"content":"\\x"}}]}\n\n'), null);
  assert.equal(scan('data: {"choices":[{"delta":{"content":"a\tb"}}]}\n\n'), null);
  assert.equal(scan('data: {"choices":[{"delta":{"content":"hi'), null);
  // Named events: an event with data but no leading name, and CR line ends.
  assert.equal(scan('data: {"type":"text.delta","delta":"hi"}\n\n', NAMED), null);
  assert.equal(scan('event: text.delta\r\ndata: {"delta":"hi"}\r\n\r\n', NAMED), null);
});

Deno.test("scanDeltas: named events: only the named ones' delta, comments allowed", () => {
  const run = 'event: text.delta\ndata: {"type":"text.delta","delta":"hi"}\n\n' +
    ": ping\n\n" +
    'event: audio.delta\ndata: {"type":"audio.delta","delta":"QUJD"}\n\n' +
    'event:text.delta\ndata: {"type":"text.delta","delta":" there","logprobs":[]}\n\n' +
    'event: text.done\ndata: {"type":"text.done","text":"hi there"}\n\n';
  assert.deepEqual(scan(run, NAMED), ["hi", " there"]);
});

Deno.test("eventEndAfter: the end of the event holding an offset, any line end", () => {
  const run = "data: a\r\n\r\ndata: b\rdata: c\r\rdata: d";
  assert.equal(eventEndAfter(run, 2), 11);
  assert.equal(eventEndAfter(run, 12), 28);
  assert.equal(eventEndAfter(run, 30), run.length, "a last event without its blank line");
});
