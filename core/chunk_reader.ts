/**
 * Chunk readers: a body read chunk by chunk, with or without a `ReadableStream` behind it. The
 * upstream client reads its connection through one directly, which spares a streamed response a
 * stream stage (a promise round and a queue) per chunk on its way to the client.
 * @module
 */

/** Reads a body one chunk at a time. One read at a time; `cancel` stops the source. */
export interface ChunkReader<T> {
  /** The next chunk; null once the body ended. Rejects when the body failed. */
  read(): Promise<T | null>;
  /** Gives the body up (a connection behind it is closed). */
  cancel(reason?: unknown): Promise<void>;
}

/** A reader over `stream` (it locks the stream). */
export function streamReader<T>(stream: ReadableStream<T>): ChunkReader<T> {
  const reader = stream.getReader();
  return {
    read: async () => {
      const { done, value } = await reader.read();
      return done ? null : value;
    },
    cancel: (reason) => reader.cancel(reason),
  };
}

/** `reader` as a stream that reads a chunk when its consumer asks for one. */
export function readerStream<T>(reader: ChunkReader<T>): ReadableStream<T> {
  return new ReadableStream<T>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk === null) controller.close();
        else controller.enqueue(chunk);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 });
}
