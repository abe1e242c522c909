/**
 * The end-to-end rig shared by the translation and Responses tests: a running gateway (the
 * built-in catalog) whose OpenAI and Anthropic providers both live at one fake upstream, and
 * the two official SDKs pointed at it.
 * @module
 */
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { type Harness, listen, makeHarness, resetHealth, upstreamEnv } from "./harness.ts";

/** The provider credentials the rig's gateway sends upstream (what fakes see). */
export const RIG_OPENAI_KEY = upstreamEnv("").OPENAI_API_KEY!;
export const RIG_ANTHROPIC_KEY = upstreamEnv("").ANTHROPIC_API_KEY!;

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

/** Starts a non-demo gateway whose providers live at `upstreamUrl`. */
export async function startRig(upstreamUrl: string): Promise<Rig> {
  const harness = await makeHarness({
    demo: false,
    // One attempt per request, each with fresh deployment health: these tests are about what
    // one upstream answer becomes (retries and cool-downs have theirs in tests/reliability/).
    env: { ...upstreamEnv(upstreamUrl), GATEHOUSE_RETRIES: "0" },
  });
  const server = listen(harness);
  const fresh: typeof fetch = (input, init) => {
    resetHealth(harness);
    return fetch(input, init);
  };
  return {
    harness,
    url: server.url,
    openai: new OpenAI({
      baseURL: `${server.url}/v1`,
      apiKey: harness.key,
      maxRetries: 0,
      fetch: fresh,
    }),
    anthropic: new Anthropic({
      baseURL: server.url,
      apiKey: harness.key,
      maxRetries: 0,
      fetch: fresh,
    }),
    post: (path, body) =>
      fresh(`${server.url}${path}`, {
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
