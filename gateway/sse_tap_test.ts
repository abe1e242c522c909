import assert from "node:assert/strict";
import { sseTapStep } from "./sse_tap.ts";
import { type Step, stepStream } from "../core/step.ts";
import type { SseEvent } from "../sse/parse_sse.ts";
import type { BodyChunk } from "./metered_body.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** What the tap sent, as text: forwarded bytes are decoded, written text taken as it is. */
async function textOf(out: ReadableStream<BodyChunk>): Promise<string> {
  const chunks = await Array.fromAsync(out);
  return chunks.map((c) => typeof c === "string" ? c : dec.decode(c)).join("");
}

async function run(chunks: string[], keep?: (e: SseEvent) => boolean) {
  const seen: SseEvent[] = [];
  const out = ReadableStream.from(chunks.map((c) => enc.encode(c))).pipeThrough(
    stepStream(sseTapStep({ observe: (e) => seen.push(e), keep })),
  );
  const text = await textOf(out);
  return { seen, text };
}

Deno.test("sseTapStep forwards bytes unchanged and observes events split across chunks", async () => {
  const input = ['event: a\ndata: {"x"', ":1}\n\nevent: b\r\ndata: 2\r\n\r\n", "data: tail"];
  const { seen, text } = await run(input);
  // A last event without a blank line after it is completed with one.
  assert.equal(text, input.join("") + "\n\n");
  assert.deepEqual(seen, [{ event: "a", data: '{"x":1}' }, { event: "b", data: "2" }, {
    data: "tail",
  }]);
});

Deno.test("sseTapStep cuts rejected events by byte range and keeps the rest verbatim", async () => {
  const input = ["data: 1\n\ndata: drop", "\n\ndata: 3\n\n", "data: [DONE]\n\n"];
  const { seen, text } = await run(input, (e) => e.data !== "drop");
  assert.equal(seen.length, 4);
  assert.equal(text, "data: 1\n\ndata: 3\n\ndata: [DONE]\n\n");
});

Deno.test("sseTapStep with a pattern skips chunks without it but sees events split across them", async () => {
  const seen: SseEvent[] = [];
  const input = ['data: {"a":1}\n\ndata: {"us', 'age":{"x":1}}\n\n', 'data: {"b":2}\n\n'];
  const out = ReadableStream.from(input.map((c) => enc.encode(c))).pipeThrough(
    stepStream(sseTapStep({ observe: (e) => seen.push(e), interesting: /"usage"/ })),
  );
  const text = await textOf(out);
  assert.equal(text, input.join(""));
  assert.ok(seen.some((e) => e.data === '{"usage":{"x":1}}'));
});

/** Runs the tap chunk by chunk and returns the text it sent after each chunk. */
function perChunk(step: Step<Uint8Array, BodyChunk>, chunks: string[]): string[] {
  const sent: string[] = [];
  let now: BodyChunk[] = [];
  const sink = { enqueue: (c: BodyChunk) => now.push(c) };
  const take = () => {
    sent.push(now.map((c) => typeof c === "string" ? c : dec.decode(c)).join(""));
    now = [];
  };
  for (const chunk of chunks) {
    step.transform(enc.encode(chunk), sink);
    take();
  }
  step.flush?.(sink);
  take();
  return sent;
}

Deno.test("sseTapStep with a filter and a pattern passes unmatched events on whole, as they complete", () => {
  const seen: SseEvent[] = [];
  const usage = 'data: {"choices":[],"usage":{"total_tokens":3}}\r\n\r\n';
  const sent = perChunk(
    sseTapStep({
      observe: (e) => seen.push(e),
      keep: (e) => !e.data.includes('"usage":{'),
      interesting: /"usage"\s*:\s*\{/,
    }),
    [
      'data: {"usage":null,"n":1}\r\n\r\ndata: {"n":',
      "2}\r\n\r\n",
      usage.slice(0, 30),
      usage.slice(30) + "data: [DONE]\r\n\r\n",
    ],
  );
  // CRLF-separated events leave as soon as they are complete; the unfinished one waits.
  assert.deepEqual(sent, [
    'data: {"usage":null,"n":1}\r\n\r\n',
    'data: {"n":2}\r\n\r\n',
    "",
    "data: [DONE]\r\n\r\n",
    "",
  ]);
  // Only the event with a usage object was parsed, not its neighbours in the same chunk.
  assert.deepEqual(seen.map((e) => e.data), ['{"choices":[],"usage":{"total_tokens":3}}']);
});

Deno.test("sseTapStep forwards only whole events: an unfinished one waits for its end", () => {
  const sent = perChunk(sseTapStep({ observe: () => {} }), [
    'data: {"a":1}\n\ndata: {"b"',
    ":2}\n\n",
    "event: x\r\ndata: 3\r\n\r\nda",
  ]);
  assert.deepEqual(sent.slice(0, 3), [
    'data: {"a":1}\n\n',
    'data: {"b":2}\n\n',
    "event: x\r\ndata: 3\r\n\r\n",
  ]);
});

Deno.test("sseTapStep: a stream that breaks off drops its half event and ends with finish's text", () => {
  const tails: string[] = [];
  const sent = perChunk(
    sseTapStep({
      observe: () => {},
      finish: (tail) => {
        tails.push(tail);
        return "event: error\ndata: {}\n\n";
      },
    }),
    ['data: {"sequence_number":4}\n\ndata: {"half'],
  );
  assert.deepEqual(sent, ['data: {"sequence_number":4}\n\n', "event: error\ndata: {}\n\n"]);
  assert.match(tails[0]!, /"sequence_number":4/);
});

Deno.test("sseTapStep: a stream that completed needs no ending and keeps its last event", () => {
  const sent = perChunk(
    sseTapStep({ observe: (event) => event.data === "[DONE]", finish: () => null }),
    ["data: 1\n\ndata: [DONE]"],
  );
  assert.deepEqual(sent, ["data: 1\n\n", "data: [DONE]\n\n"]);
});

Deno.test("sseTapStep: an event cut off halfway at the end is dropped, a terminal one without its blank line is kept", () => {
  const run = (text: string, endsAt: RegExp) => {
    const out: string[] = [];
    const sink = {
      enqueue: (chunk: Uint8Array | string) =>
        out.push(typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk)),
    };
    const tap = sseTapStep({
      observe: (event) => endsAt.test(event.data),
      finish: () => null,
    });
    tap.transform(new TextEncoder().encode(text), sink);
    tap.flush!(sink);
    return out.join("");
  };
  const finished = 'data: {"choices":[{"finish_reason":"stop"}]}\n\n';
  assert.equal(
    run(`${finished}data: {"choices":[],"usage":{"prompt_tok`, /\[DONE\]/),
    `${finished}`,
  );
  assert.equal(run(`${finished}data: [DONE]`, /\[DONE\]/), `${finished}data: [DONE]\n\n`);
});

Deno.test("sseTapStep: finish gets the last events the client was sent, not a keep-alive or a half event", () => {
  const lasts: string[] = [];
  const tap = () =>
    sseTapStep({
      observe: () => {},
      finish: (lastEvents) => {
        lasts.push(lastEvents);
        return "";
      },
    });
  perChunk(tap(), ['data: {"sequence_number":4}\n\n', ": keep-alive\n\n"]);
  perChunk(tap(), ['data: {"sequence_number":0}\n\ndata: {"sequence_number":1,"half', "-way"]);
  assert.match(lasts[0]!, /"sequence_number":4/);
  assert.doesNotMatch(lasts[1]!, /"sequence_number":1/);
  assert.match(lasts[1]!, /"sequence_number":0/);
});

Deno.test("sseTapStep: with a filter, finish gets the last events kept, not those cut out", () => {
  const lasts: string[] = [];
  const step = sseTapStep({
    observe: () => {},
    keep: (e) => !e.data.includes('"sequence_number":2'),
    finish: (lastEvents) => {
      lasts.push(lastEvents);
      return "";
    },
  });
  perChunk(step, ['data: {"sequence_number":1}\n\ndata: {"sequence_number":2}\n\n']);
  assert.match(lasts[0]!, /"sequence_number":1/);
  assert.doesNotMatch(lasts[0]!, /"sequence_number":2/, "the dropped event was never sent");
});

Deno.test("sseTapStep: a 1 MiB event in 4 KiB pieces, boundaries split across pieces, leaves whole, observed once", () => {
  const big = `data: {"usage":{"x":1},"blob":"${"a".repeat(1 << 20)}"}\r\n\r\n`;
  const input = `data: 1\r\n\r${"\n"}${big}data: 2\r\n\r\n`;
  const pieces: string[] = [];
  for (let i = 0; i < input.length; i += 4096) pieces.push(input.slice(i, i + 4096));
  for (const keep of [undefined, () => true]) {
    const seen: SseEvent[] = [];
    const sent = perChunk(
      sseTapStep({ observe: (e) => seen.push(e), keep, interesting: /"usage"\s*:\s*\{/ }),
      pieces,
    );
    assert.equal(sent.join(""), input, keep ? "with a filter" : "bytes as they came");
    for (const text of sent.filter((text) => text.length > 0)) {
      assert.ok(text.endsWith("\r\n\r\n"), "only whole events are sent");
    }
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.data.length, big.length - "data: \r\n\r\n".length);
  }
});

/** A tap with a meter that cuts after the event whose data is `cutAt`, recording what it was
 * given and what was observed; `finish` ends a stream that was cut with an error event. */
function meteredTap(cutAt: string, interesting?: RegExp) {
  const metered: string[] = [];
  const seen: string[] = [];
  const step = sseTapStep({
    observe: (event) => (seen.push(event.data), event.data === "[DONE]"),
    interesting,
    meter: (events) => {
      metered.push(events);
      const at = events.indexOf(`data: ${cutAt}\n\n`);
      return at === -1 ? -1 : at + `data: ${cutAt}\n\n`.length;
    },
    finish: () => (seen.includes("[DONE]") ? null : "data: cut\n\n"),
  });
  return { step, metered, seen };
}

Deno.test("sseTapStep with a meter: a read nothing interesting is in is metered whole, cut after the reaching event", () => {
  const { step, metered, seen } = meteredTap("2", /DONE/);
  const sent = perChunk(step, [
    "data: 1\n\n",
    "data: 2\n\ndata: 3\n\n",
    "data: 4\n\ndata: [DONE]\n\n",
  ]);
  assert.deepEqual(sent, ["data: 1\n\n", "data: 2\n\n", "", "data: cut\n\n"]);
  assert.deepEqual(
    metered,
    ["data: 1\n\n", "data: 2\n\ndata: 3\n\n"],
    "whole reads, nothing after",
  );
  assert.deepEqual(seen, [], "not split, not parsed");
});

Deno.test("sseTapStep with a meter: in a read with interesting events, each is metered before it is observed", () => {
  const { step, metered, seen } = meteredTap("2", /DONE|2/);
  const sent = perChunk(step, ["data: 1\n\ndata: 2\n\ndata: 3\n\ndata: [DONE]\n\n"]);
  assert.deepEqual(sent, ["data: 1\n\ndata: 2\n\n", "data: cut\n\n"]);
  assert.deepEqual(metered, ["data: 1\n\n", "data: 2\n\n"], "event by event, up to the cut");
  assert.deepEqual(seen, ["2"], "the event that reached the budget is still observed; no [DONE]");
});

Deno.test("sseTapStep with a meter: events split across reads are metered once, whole; a finished stream's unterminated end too", () => {
  const { step, metered } = meteredTap("none", /DONE/);
  const sent = perChunk(step, ['data: {"a', '":1}\n\nda', "ta: 2\n", "\ndata: [DONE]"]);
  assert.deepEqual(sent.join(""), 'data: {"a":1}\n\ndata: 2\n\ndata: [DONE]\n\n');
  assert.deepEqual(metered, ['data: {"a":1}\n\n', "data: 2\n\n", "data: [DONE]"]);
});

Deno.test("sseTapStep with a meter: after a cut, later reads and the held half event are dropped", () => {
  const { step, metered, seen } = meteredTap("1");
  const sent = perChunk(step, ["data: 1\n\ndata: 2", "\n\ndata: [DONE]\n\n", "data: [DO"]);
  assert.deepEqual(sent, ["data: 1\n\n", "", "", "data: cut\n\n"]);
  assert.deepEqual(metered, ["data: 1\n\n"]);
  assert.deepEqual(seen, ["1"]);
});
