/**
 * Shared rig for the Responses end-to-end tests: a running gateway whose OpenAI and Anthropic
 * providers are one fake upstream, the two official SDKs pointed at it, and raw access to a
 * streamed answer's SSE events for the checks the SDKs do not make.
 * @module
 */
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { type Harness, listen, makeHarness } from "../harness.ts";
import { parseSse } from "../../sse/parse_sse.ts";

/** A gateway pointed at one fake upstream, with both SDKs pointed at the gateway. */
export interface Rig {
  harness: Harness;
  /** The gateway root, e.g. `http://127.0.0.1:1234`. */
  url: string;
  openai: OpenAI;
  anthropic: Anthropic;
  /** POSTs `body` as JSON to the gateway with the test key. */
  post(path: string, body: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** Starts a non-demo gateway (the built-in catalog) whose providers live at `upstreamUrl`. */
export async function startRig(upstreamUrl: string): Promise<Rig> {
  const harness = await makeHarness({
    demo: false,
    env: {
      OPENAI_API_KEY: "sk-upstream-openai",
      ANTHROPIC_API_KEY: "sk-ant-upstream",
      GATEHOUSE_OPENAI_URL: upstreamUrl,
      GATEHOUSE_ANTHROPIC_URL: upstreamUrl,
    },
  });
  const server = listen(harness);
  return {
    harness,
    url: server.url,
    openai: new OpenAI({ baseURL: `${server.url}/v1`, apiKey: harness.key, maxRetries: 0 }),
    anthropic: new Anthropic({ baseURL: server.url, apiKey: harness.key, maxRetries: 0 }),
    post: (path, body) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${harness.key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    async close() {
      await server.close();
      await harness.close();
    },
  };
}

/** One SSE event with its data parsed. */
export interface RawEvent {
  /** The `event:` field, if any. */
  event?: string;
  data: Record<string, unknown>;
}

/** Every SSE event of a streamed answer, in order, with the JSON data parsed (`[DONE]` is
 * skipped). A data line that is not JSON fails the test that reads it. */
export async function readRawEvents(response: Response): Promise<RawEvent[]> {
  if (response.body === null) throw new Error("the streamed answer has no body");
  const events: RawEvent[] = [];
  const reader = response.body.pipeThrough(parseSse()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    if (value.data === "[DONE]") continue;
    const data = JSON.parse(value.data) as Record<string, unknown>;
    events.push(value.event === undefined ? { data } : { event: value.event, data });
  }
}

/** Runs `work` and returns what it threw; fails when it did not throw. */
export async function thrown(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail, but it succeeded");
}
