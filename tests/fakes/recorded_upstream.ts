/**
 * A fake provider that answers with the recorded transcripts, byte-for-byte.
 *
 * ```ts
 * const upstream = startRecordedUpstream();
 * upstream.use({ folder: "anthropic-messages", name: "anthropic-text" });
 * // point the gateway at upstream.url, send requests, then inspect upstream.requests
 * await upstream.close();
 * ```
 *
 * Every POST is answered in this order: a simulated failure (`fail()` / `options.failure`), then
 * `…/messages/count_tokens` → `{"input_tokens": ceil(UTF-8 bytes of the raw body / 4)}`, then the
 * selected fixture, or a loud 500 when none is selected. Other methods get 404. Answers carry an
 * `x-fake-fixture` header naming the file (and stream part) that was sent.
 * @module
 */

import {
  type FixtureFolder,
  fixtureKinds,
  loadChunks,
  loadJsonText,
  splitStreams,
} from "./fixtures.ts";
import { type FakeServer, type RecordedRequest, startFakeServer } from "./fake_server.ts";
import { fakeErrorReply, jsonReply, jsonTextReply, sseReply } from "./replies.ts";
import { type ReplayOptions, sseReplayStream, wireOfFolder } from "./sse_replay.ts";
import { countTokensBody } from "./tokens.ts";

export type { RecordedRequest } from "./fake_server.ts";

/** How the streamed replay is paced and cut (see {@linkcode ReplayOptions}). */
export type ReplayPacing = Pick<ReplayOptions, "delayMs" | "splitBytes" | "hangAfterChunks">;

/** What the next requests are answered with. */
export interface FixtureSelection extends ReplayPacing {
  folder: FixtureFolder;
  /** File name without `.chunks.txt` / `.json`, e.g. `anthropic-text` or `openai-error.1`. */
  name: string;
  /**
   * `undefined`: stream when the request body has `stream: true` and a chunks file exists, else
   * send the `.json`. `true` / `false` force one kind regardless of the request.
   */
  stream?: boolean;
  /** Status of a `.json` answer. Default 200, except the recorded error bodies (see below). */
  status?: number;
  /**
   * Which stream of a multi-stream chunks file to send (0-based). When omitted and the file holds
   * several streams, successive streamed requests get them in recorded order, and one request
   * too many gets a 500 saying the recording is used up.
   */
  part?: number;
}

/** A simulated upstream failure, sent for every POST until cleared. */
export interface UpstreamFailure {
  status: number;
  /** A string is sent as is; anything else as JSON. */
  body: unknown;
  /** E.g. `{ "retry-after": "2" }`. */
  headers?: Record<string, string>;
}

/** Options of {@linkcode startRecordedUpstream}. */
export interface RecordedUpstreamOptions extends ReplayPacing {
  /** Fail every POST with this answer from the start (see {@linkcode RecordedUpstream.fail}). */
  failure?: UpstreamFailure;
}

/** A running recorded upstream. */
export interface RecordedUpstream extends FakeServer {
  /** Selects the fixture the next request(s) get; it stays selected until the next call. */
  use(fixture: FixtureSelection): void;
  /** Makes every POST answer `failure` (`undefined` restores normal answers). */
  fail(failure: UpstreamFailure | undefined): void;
}

/**
 * Statuses of the recorded error bodies: the images one is OpenAI's 400 for an unknown parameter;
 * `insufficient_quota` is sent by OpenAI with 429.
 */
const RECORDED_ERROR_STATUS: Readonly<Record<string, number>> = {
  "openai-images/gpt-image-response-format-error": 400,
  "openai-responses/openai-error.1": 429,
};

/** The request path each folder answers, as a suffix (the gateway posts to `<root>/v1/...`). */
const FOLDER_PATH: Readonly<Record<FixtureFolder, string>> = {
  "anthropic-messages": "/messages",
  "openai-responses": "/responses",
  "openai-chat": "/chat/completions",
  "openai-images": "/images/generations",
};

function wantsStream(body: unknown): boolean {
  return typeof body === "object" && body !== null && "stream" in body && body.stream === true;
}

function failureReply(failure: UpstreamFailure): Response {
  const headers = failure.headers ?? {};
  return typeof failure.body === "string"
    ? new Response(failure.body, { status: failure.status, headers })
    : jsonReply(failure.body, failure.status, headers);
}

/** Starts a fake provider on `http://127.0.0.1:<random port>` that replays recorded fixtures. */
export function startRecordedUpstream(options: RecordedUpstreamOptions = {}): RecordedUpstream {
  let selection: FixtureSelection | undefined;
  let failure = options.failure;
  let nextPart = 0;

  const answerFixture = async (
    fixture: FixtureSelection,
    request: RecordedRequest,
    signal: AbortSignal,
  ): Promise<Response> => {
    const id = `${fixture.folder}/${fixture.name}`;
    const expectedPath = FOLDER_PATH[fixture.folder];
    if (!request.path.endsWith(expectedPath)) {
      return fakeErrorReply(
        500,
        `recorded upstream: fixture ${id} answers ${expectedPath}, but the request went to ` +
          `${request.path}`,
      );
    }
    const kinds = await fixtureKinds(fixture.folder, fixture.name);
    if (!kinds.chunks && !kinds.json) {
      return fakeErrorReply(500, `recorded upstream: no recorded file named ${id}`);
    }
    const wire = wireOfFolder(fixture.folder);
    const stream = fixture.stream ?? wantsStream(request.body);
    if (stream && kinds.chunks && wire !== undefined) {
      const streams = splitStreams(await loadChunks(fixture.folder, fixture.name));
      const part = fixture.part ?? nextPart++;
      const lines = streams[part];
      if (lines === undefined) {
        return fakeErrorReply(
          500,
          `recorded upstream: ${id}.chunks.txt holds ${streams.length} stream(s); part ${part} ` +
            `does not exist (call use() again to restart)`,
        );
      }
      const pacing: ReplayOptions = {
        delayMs: fixture.delayMs ?? options.delayMs,
        splitBytes: fixture.splitBytes ?? options.splitBytes,
        hangAfterChunks: fixture.hangAfterChunks ?? options.hangAfterChunks,
        signal,
      };
      const response = sseReply(sseReplayStream(wire, lines, pacing));
      response.headers.set("x-fake-fixture", `${id}.chunks.txt#${part}`);
      return response;
    }
    if (!kinds.json) {
      return fakeErrorReply(
        500,
        `recorded upstream: ${id} has no .json for a non-streamed answer (stream=${stream})`,
      );
    }
    const status = fixture.status ?? RECORDED_ERROR_STATUS[id] ?? 200;
    return jsonTextReply(await loadJsonText(fixture.folder, fixture.name), status, {
      "x-fake-fixture": `${id}.json`,
    });
  };

  const server = startFakeServer("recorded upstream", (request, signal) => {
    if (request.method !== "POST") {
      return fakeErrorReply(
        404,
        `recorded upstream: no route for ${request.method} ${request.path}`,
      );
    }
    if (failure !== undefined) return failureReply(failure);
    if (request.path.endsWith("/messages/count_tokens")) {
      return jsonReply(countTokensBody(request.rawBody));
    }
    if (selection === undefined) {
      return fakeErrorReply(
        500,
        `recorded upstream: no fixture selected for POST ${request.path}; call use() first`,
      );
    }
    return answerFixture(selection, request, signal);
  });

  return {
    ...server,
    get aborted() {
      return server.aborted;
    },
    use(fixture) {
      selection = fixture;
      nextPart = 0;
    },
    fail(next) {
      failure = next;
    },
  };
}
