/**
 * Response body framing (RFC 9112 §6): by `Content-Length`, by chunked transfer coding, or up to
 * the connection's close. A decoder takes the bytes as they are read and hands back the body
 * bytes in them, and, once the body has ended, the bytes after it.
 * @module
 */

/** What one call to {@link BodyDecoder.push} found. */
export interface Decoded {
  /** Body bytes, as views into the input (copy them before the input buffer is reused). */
  data: Uint8Array[];
  /** True once the body has ended. */
  done: boolean;
  /** Input after the end of the body (nonempty only when `done`). */
  rest: Uint8Array;
}

/** A stateful framing decoder for one response body. */
export interface BodyDecoder {
  push(input: Uint8Array): Decoded;
  /** Called at end of input: true when the body is complete there (close-delimited bodies). */
  end(): boolean;
}

const EMPTY = new Uint8Array(0);

/** A body of exactly `length` bytes. */
export function lengthDecoder(length: number): BodyDecoder {
  let remaining = length;
  return {
    push(input) {
      const take = Math.min(remaining, input.length);
      remaining -= take;
      return {
        data: take > 0 ? [input.subarray(0, take)] : [],
        done: remaining === 0,
        rest: remaining === 0 ? input.subarray(take) : EMPTY,
      };
    },
    end: () => remaining === 0,
  };
}

/** A body that runs until the server closes the connection. */
export function closeDelimitedDecoder(): BodyDecoder {
  return {
    push: (input) => ({ data: input.length > 0 ? [input] : [], done: false, rest: EMPTY }),
    end: () => true,
  };
}

/** The longest chunk-size or trailer line accepted. */
const MAX_LINE = 8 * 1024;

const CR = 0x0d;
const LF = 0x0a;

/** The value of a hex digit's byte, or -1. */
function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

/** Chunked transfer coding: hex sizes with optional extensions, data, and optional trailers,
 * across reads split at any byte. */
export function chunkedDecoder(): BodyDecoder {
  type State = "size" | "data" | "data_end" | "trailer" | "done";
  let state: State = "size";
  let line = "";
  let remaining = 0;

  /** Consumes one line ending at LF from `input` at `i`; returns the index after it or -1. */
  const takeLine = (input: Uint8Array, i: number): number => {
    const lf = input.indexOf(10, i);
    const stop = lf === -1 ? input.length : lf;
    for (let j = i; j < stop; j++) line += String.fromCharCode(input[j]!);
    if (line.length > MAX_LINE) throw new Error("a chunk-size or trailer line is too long");
    return lf === -1 ? -1 : lf + 1;
  };

  /** The common lines read straight from the bytes, without building a string: a chunk size of
   * bare hex digits, or the empty line after a chunk's data, each ending in CRLF (or LF) within
   * `input`. Returns the index after the line, or -1 for any other line (read as text). */
  const quickLine = (input: Uint8Array, i: number): number => {
    let j = i;
    let size = 0;
    if (state === "size") {
      for (; j < input.length && j - i <= 12; j++) {
        const digit = hexValue(input[j]!);
        if (digit === -1) break;
        size = size * 16 + digit;
      }
      if (j === i || j - i > 12) return -1;
    }
    const end = input[j] === CR && input[j + 1] === LF ? j + 2 : input[j] === LF ? j + 1 : -1;
    if (end === -1) return -1;
    if (state === "size") {
      remaining = size;
      state = size === 0 ? "trailer" : "data";
    } else {
      state = "size";
    }
    return end;
  };

  /** The state after a complete line (its CR taken off) read in a line state. */
  const afterLine = (at: Exclude<State, "data" | "done">, text: string): State => {
    switch (at) {
      case "size": {
        const size = text.split(";")[0]!.trim();
        if (!/^[0-9a-fA-F]{1,12}$/.test(size)) {
          throw new Error(`malformed chunk size ${JSON.stringify(size.slice(0, 20))}`);
        }
        remaining = parseInt(size, 16);
        return remaining === 0 ? "trailer" : "data";
      }
      case "data_end":
        if (text !== "") throw new Error("a chunk's data is longer than its size says");
        return "size";
      // Trailer fields carry nothing the gateway uses; the empty line ends the body.
      case "trailer":
        return text === "" ? "done" : "trailer";
      default: {
        const never: never = at;
        throw new Error(`unknown state ${never}`);
      }
    }
  };

  return {
    push(input) {
      const data: Uint8Array[] = [];
      let i = 0;
      while (i < input.length && state !== "done") {
        if (state === "data") {
          const take = Math.min(remaining, input.length - i);
          data.push(input.subarray(i, i + take));
          i += take;
          remaining -= take;
          if (remaining === 0) state = "data_end";
          continue;
        }
        if (line === "" && (state === "size" || state === "data_end")) {
          const quick = quickLine(input, i);
          if (quick !== -1) {
            i = quick;
            continue;
          }
        }
        const next = takeLine(input, i);
        if (next === -1) return { data, done: false, rest: EMPTY };
        i = next;
        const text = line.replace(/\r$/, "");
        line = "";
        state = afterLine(state, text);
      }
      return { data, done: state === "done", rest: state === "done" ? input.subarray(i) : EMPTY };
    },
    end: () => state === "done",
  };
}
