/**
 * What an upstream call answers: the part of `Response` the gateway reads. The runtime's
 * `Response` is one; the HTTP/1.1 client returns its own {@link Http1Response}, because building
 * a `Response` copies every header into a new list and wraps even a body that came whole in a
 * stream, which together cost more than the rest of the client's work on a small JSON answer.
 * @module
 */
import type { ResponseHead } from "./parse_head.ts";

/** An upstream answer, as the gateway reads it. */
export interface UpstreamResponse {
  readonly status: number;
  readonly statusText: string;
  /** True for a 2xx status. */
  readonly ok: boolean;
  readonly headers: Headers;
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

/** A response whose body is either already in memory (it came whole with the head) or a stream
 * still being read from the connection. */
export class Http1Response implements UpstreamResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  #whole: Uint8Array<ArrayBuffer> | null;
  #stream: ReadableStream<Uint8Array<ArrayBuffer>> | null;
  #used = false;

  constructor(
    init: Pick<ResponseHead, "status" | "statusText" | "headers">,
    body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array<ArrayBuffer>> | null,
  ) {
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.#whole = body instanceof Uint8Array ? body : null;
    this.#stream = body instanceof Uint8Array ? null : body;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /** A body held in memory becomes a one-chunk stream when someone asks for the stream. */
  get body(): ReadableStream<Uint8Array> | null {
    if (this.#whole !== null) {
      const bytes = this.#whole;
      this.#whole = null;
      this.#stream = new ReadableStream({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      });
    }
    return this.#stream;
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#used) throw new TypeError("the upstream response body was already read");
    this.#used = true;
    const whole = this.#whole;
    if (whole !== null) {
      this.#whole = null;
      return whole;
    }
    // A streamed body (one that did not come whole) is collected by the runtime.
    return this.#stream === null ? EMPTY : await new Response(this.#stream).bytes();
  }

  async text(): Promise<string> {
    return utf8.decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}
