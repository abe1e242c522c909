/**
 * The converter contract: every conversion is a pure function returning its value and the
 * warnings about what it could not carry over.
 * @module
 */

/** What a conversion could not carry over, and why. */
export interface Warning {
  /** Dotted path of the field in the input (`tools[2]`, `thinking.signature`). */
  field: string;
  message: string;
}

/** A conversion's result. */
export interface Converted<T> {
  value: T;
  warnings: Warning[];
}

/** Wraps a value with no warnings. */
export function ok<T>(value: T): Converted<T> {
  return { value, warnings: [] };
}
