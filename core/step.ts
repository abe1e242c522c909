/**
 * Synchronous stream steps. Every stream conversion (SSE parsing, decoding an upstream stream,
 * encoding a client stream) is written as a step: the transformer a `TransformStream` would
 * take. Steps compose into one function per chunk, so a translated stream runs as one stream
 * stage instead of one per conversion (each stage costs a promise round per chunk); and each
 * step still becomes a `TransformStream` where a stream is wanted.
 * @module
 */

/** Where a step puts its output. A `TransformStream` controller is one. */
export interface Sink<T> {
  enqueue(chunk: T): void;
}

/** A synchronous transform with per-stream state in its closure. */
export interface Step<I, O> {
  /** Called once before the first chunk, with the sink every later call uses too. */
  start?(out: Sink<O>): void;
  transform(chunk: I, out: Sink<O>): void;
  flush?(out: Sink<O>): void;
}

/** The step as a `TransformStream`. */
export function stepStream<I, O>(step: Step<I, O>): TransformStream<I, O> {
  return new TransformStream<I, O>({
    start: (controller) => step.start?.(controller),
    transform: (chunk, controller) => step.transform(chunk, controller),
    flush: (controller) => step.flush?.(controller),
  });
}

/** `first` then `second`, as one step: what `first` emits goes straight into `second`. */
export function chainSteps<A, B, C>(first: Step<A, B>, second: Step<B, C>): Step<A, C> {
  let middle: Sink<B> | null = null;
  const open = (out: Sink<C>): Sink<B> => {
    if (middle) return middle;
    const sink: Sink<B> = { enqueue: (chunk) => second.transform(chunk, out) };
    middle = sink;
    second.start?.(out);
    first.start?.(sink);
    return sink;
  };
  return {
    start: (out) => void open(out),
    transform: (chunk, out) => first.transform(chunk, open(out)),
    flush(out) {
      first.flush?.(open(out));
      second.flush?.(out);
    },
  };
}

/** Runs a step over a whole array (tests, non-streamed use). */
export function runStep<I, O>(step: Step<I, O>, input: Iterable<I>): O[] {
  const output: O[] = [];
  const sink: Sink<O> = { enqueue: (chunk) => output.push(chunk) };
  step.start?.(sink);
  for (const chunk of input) step.transform(chunk, sink);
  step.flush?.(sink);
  return output;
}
