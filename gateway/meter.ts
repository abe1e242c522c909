/**
 * Budget metering of a streamed answer: the output text delivered to the client, measured
 * against the request's budget watch (`Admission.watch`) so that the stream is cut right after
 * the delta that reaches the budget, and an unfinished stream is billed at least what it
 * delivered.
 *
 * Counting every delta with the o200k tokenizer and asking the watch after each one cost a
 * budgeted stream about a fifth of its throughput, so the meter works from an upper bound: a
 * token is at least one UTF-8 byte, so the bytes of the text delivered bound its tokens. While
 * the admission says the cost at that bound is quiet (`Admission.quiet`: the watch would neither
 * refuse nor raise the request's hold above its reservation, so asking it would change nothing)
 * the text is kept uncounted and the watch is not asked. Once it is not, the text is counted
 * delta by delta (as before); when the cost at the exact count is still quiet the watch is not
 * asked either, else it is asked after each delta, so the cut lands on the exact delta and the
 * hold counts the actual spend. A passthrough hands over the deltas of a whole upstream read at
 * once (`deliveredRun`): one test for all of them while quiet. Text kept uncounted is counted
 * when a count is needed: for the watch, or to bill a stream that did not finish. A finished
 * stream is billed at the provider's usage, and its text is never counted.
 * @module
 */
import { countTokens } from "gpt-tokenizer";
import type { GatewayError } from "../core/errors.ts";
import type { Usage } from "../core/response.ts";
import type { RunText } from "../protocols/output_scan.ts";
import type { Admission, Flowing } from "./admission.ts";

/** What the meter needs of its request (the lifecycle). */
export interface MeterHost {
  /** The admission whose `watch` (present) the meter asks, and whose `quiet` it may. */
  readonly admission: Admission;
  /** What the request would be billed so far with `outputTokens` delivered: its usage and
   * cost, as the watch sees them. */
  flowing(outputTokens: number): Flowing;
  /** Whether the stream already ended (text delivered after that is counted, not asked about). */
  ended(): boolean;
  /** The watch refused: the stream ends with `error` after the delta that reached the budget. */
  refused(error: GatewayError): void;
}

/** The meter of one streamed answer. */
export interface Meter {
  /** One delta of output text on its way to the client; true when it reached the budget (the
   * stream ends after it). */
  delivered(text: string): boolean;
  /** The pieces of output text a run of events delivers, in order (`run.texts[0, count)`): the
   * index of the piece that reached the budget (nothing after the event that carries it may
   * go on; the pieces after it in that event reached the client too: tell them with
   * {@link delivered}), or -1. */
  deliveredRun(run: RunText): number;
  /** Output tokens delivered so far: o200k, delta by delta (counts what was kept uncounted). */
  tokens(): number;
}

/** The most text (UTF-8 bytes, bounded) kept uncounted: a free model's cost never grows, and a
 * long stream's text must not be held until its end. (A kept piece of 13 characters or more is
 * a slice that holds on to the text of its upstream read, so this also bounds what a stream
 * holds in memory: a few hundred reads at most. A reservation's output is mostly smaller:
 * 1024 tokens unless the request asks for another limit.) */
export const MAX_UNCOUNTED_BYTES = 4096;

const NO_SPECIAL_TOKENS = { disallowedSpecial: new Set<string>() };

/** o200k tokens of generated text. Text that spells a special token (`<|endoftext|>`) is
 * counted as the ordinary text it is (the tokenizer refuses it by default). */
export function outputTokensOf(text: string): number {
  if (text === "") return 0;
  try {
    return countTokens(text);
  } catch {
    return countTokens(text, NO_SPECIAL_TOKENS);
  }
}

/** UTF-8 bytes `text` takes at most (3 per UTF-16 unit past ASCII): never fewer than its o200k
 * tokens, which are one byte or more each. */
export function utf8Bound(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) bytes += 2;
  return bytes;
}

/** What a stream that did not finish is billed: the upstream's usage, with at least
 * `outputTokens` of output and the admission's input estimate where the upstream gave no input
 * figure. */
export function meteredUsage(usage: Usage, outputTokens: number, inputEstimate: number): Usage {
  const billed = { ...usage };
  billed.outputTokens = Math.max(billed.outputTokens, outputTokens);
  if (billed.inputTokens === 0) billed.inputTokens = inputEstimate;
  return billed;
}

/** The meter of one streamed answer, reporting to `host`. */
export function createMeter(host: MeterHost): Meter {
  const { admission } = host;
  const watch = admission.watch!;
  /** Tokens counted exactly, and the text delivered since (bounded by `uncountedBytes`). */
  let counted = 0;
  let uncounted: string[] = [];
  let uncountedBytes = 0;
  /** Each piece's tokens while a run is counted (reused). */
  const pieceTokens: number[] = [];

  const countUncounted = () => {
    for (const text of uncounted) counted += outputTokensOf(text);
    uncounted = [];
    uncountedBytes = 0;
  };
  const quiet = (tokens: number) =>
    admission.quiet !== undefined && admission.quiet(host.flowing(tokens).cost);
  /** Asks the watch at `tokens` delivered; true when it refused (the stream is cut). */
  const ask = (tokens: number) => {
    const error = watch(host.flowing(tokens));
    if (error === null) return false;
    host.refused(error);
    return true;
  };
  /** Keeps `bytes` more text uncounted when the cost at the bound stays quiet. */
  const keepsQuiet = (bytes: number) => {
    const total = uncountedBytes + bytes;
    return total <= MAX_UNCOUNTED_BYTES && quiet(counted + total);
  };
  /** Text delivered after the stream ended: counted, never asked about. */
  const afterEnd = (text: string) => {
    uncounted.push(text);
    uncountedBytes += utf8Bound(text);
    if (uncountedBytes > MAX_UNCOUNTED_BYTES) countUncounted();
  };

  return {
    delivered(text) {
      if (text === "") return false;
      if (host.ended()) {
        afterEnd(text);
        return false;
      }
      const bytes = utf8Bound(text);
      if (keepsQuiet(bytes)) {
        uncounted.push(text);
        uncountedBytes += bytes;
        return false;
      }
      countUncounted();
      counted += outputTokensOf(text);
      return !quiet(counted) && ask(counted);
    },
    deliveredRun(run) {
      const { texts, count } = run;
      if (count === 0) return -1;
      if (host.ended()) {
        for (let i = 0; i < count; i++) afterEnd(texts[i]!);
        return -1;
      }
      let bytes = 0;
      for (let i = 0; i < count; i++) bytes += utf8Bound(texts[i]!);
      if (keepsQuiet(bytes)) {
        for (let i = 0; i < count; i++) uncounted.push(texts[i]!);
        uncountedBytes += bytes;
        return -1;
      }
      countUncounted();
      let total = counted;
      for (let i = 0; i < count; i++) total += pieceTokens[i] = outputTokensOf(texts[i]!);
      // Quiet at its exact total: the watch would say nothing about any piece of the run.
      if (quiet(total)) {
        counted = total;
        return -1;
      }
      for (let i = 0; i < count; i++) {
        counted += pieceTokens[i]!;
        if (ask(counted)) return i;
      }
      return -1;
    },
    tokens() {
      countUncounted();
      return counted;
    },
  };
}
