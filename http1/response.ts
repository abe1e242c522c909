/**
 * What an upstream call answers: the part of `Response` the gateway reads. The runtime's
 * `Response` is one; the HTTP/1.1 client returns its own {@link Http1Response}, because building
 * a `Response` copies every header into a new list and wraps even a body that came whole in a
 * stream, which together cost more than the rest of the client's work on a small JSON answer.
 * @module
 */
import { type ChunkReader, readerStream, streamReader } from "../core/chunk_reader.ts";
import { assertNever } from "../core/stream.ts";
import type { HeaderReader } from "../core/header_reader.ts";

/** An upstream answer, as the gateway reads it. */
export interface UpstreamResponse {
  readonly status: number;
  readonly statusText: string;
  /** True for a 2xx status. */
  readonly ok: boolean;
  readonly headers: HeaderReader;
  /** The body as a stream; null when there is none. */
  readonly body: ReadableStream<Uint8Array> | null;
  /** True once the body has been read. */
  readonly bodyUsed: boolean;
  bytes(): Promise<Uint8Array<ArrayBuffer>>;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

const utf8 = new TextDecoder();
const EMPTY = new Uint8Array(0);

type Body =
  | { kind: "whole"; bytes: Uint8Array<ArrayBuffer> }
  | { kind: "reader"; reader: ChunkReader<Uint8Array<ArrayBuffer>> }
  | { kind: "stream"; stream: ReadableStream<Uint8Array<ArrayBuffer>> }
  | { kind: "none" };

/** A response whose body is already in memory (it came whole with the head), still being read
 * from the connection, or a stream (a compressed body being undone). */
export class Http1Response implements UpstreamResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: HeaderReader;
  #body: Body;
  #used = false;

  constructor(
    init: { status: number; statusText: string; headers: HeaderReader },
    body:
      | Uint8Array<ArrayBuffer>
      | ChunkReader<Uint8Array<ArrayBuffer>>
      | ReadableStream<Uint8Array<ArrayBuffer>>
      | null,
  ) {
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.#body = body === null
      ? { kind: "none" }
      : body instanceof Uint8Array
      ? { kind: "whole", bytes: body }
      : body instanceof ReadableStream
      ? { kind: "stream", stream: body }
      : { kind: "reader", reader: body };
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /** The body as a stream, made when someone asks for it. */
  get body(): ReadableStream<Uint8Array> | null {
    const body = this.#body;
    switch (body.kind) {
      case "none":
        return null;
      case "stream":
        return body.stream;
      case "whole": {
        const bytes = body.bytes;
        this.#body = {
          kind: "stream",
          stream: new ReadableStream({
            start(controller) {
              controller.enqueue(bytes);
              controller.close();
            },
          }),
        };
        return this.body;
      }
      case "reader":
        this.#body = { kind: "stream", stream: readerStream(body.reader) };
        return this.body;
      default:
        return assertNever(body);
    }
  }

  /** Takes the body when it arrived whole with the head (most JSON answers); null otherwise,
   * leaving it to be read. */
  takeWhole(): Uint8Array<ArrayBuffer> | null {
    const body = this.#body;
    if (this.#used || body.kind !== "whole") return null;
    this.#used = true;
    this.#body = { kind: "none" };
    return body.bytes;
  }

  /** Takes the body to read chunk by chunk; null when there is none. A body still on the
   * connection is read from it directly, without a stream. */
  reader(): ChunkReader<Uint8Array> | null {
    if (this.#used) throw new TypeError("the upstream response body was already read");
    const body = this.#body;
    if (body.kind === "none") return null;
    this.#used = true;
    this.#body = { kind: "none" };
    switch (body.kind) {
      case "reader":
        return body.reader;
      case "stream":
        return streamReader(body.stream);
      case "whole": {
        let bytes: Uint8Array | null = body.bytes;
        return {
          read: () => {
            const chunk = bytes;
            bytes = null;
            return Promise.resolve(chunk);
          },
          cancel: () => {
            bytes = null;
            return Promise.resolve();
          },
        };
      }
      default:
        return assertNever(body);
    }
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#used) throw new TypeError("the upstream response body was already read");
    this.#used = true;
    const body = this.#body;
    this.#body = { kind: "none" };
    switch (body.kind) {
      case "none":
        return EMPTY;
      case "whole":
        return body.bytes;
      // A body that did not come whole is collected by the runtime.
      case "reader":
        return await new Response(readerStream(body.reader)).bytes();
      case "stream":
        return await new Response(body.stream).bytes();
      default:
        return assertNever(body);
    }
  }

  async text(): Promise<string> {
    return utf8.decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

/** A reader over `response`'s body, taking it: straight from the connection for the HTTP/1.1
 * client's own responses, through the body stream for the runtime's. Null when there is none. */
export function bodyReaderOf(response: UpstreamResponse): ChunkReader<Uint8Array> | null {
  if (response instanceof Http1Response) return response.reader();
  return response.body === null ? null : streamReader(response.body);
}
