/**
 * Typed reads of `node:sqlite` result rows. Columns come back as `SQLOutputValue`; these narrow
 * them and fail loudly when the schema and the code disagree.
 * @module
 */
import type { SQLOutputValue } from "node:sqlite";

/** A result row as `node:sqlite` returns it. */
export type Row = Record<string, SQLOutputValue>;

function mismatch(column: string, expected: string, value: SQLOutputValue): Error {
  return new Error(
    `store schema mismatch: column "${column}" should be ${expected}, got ${typeof value}`,
  );
}

/** A TEXT column. */
export function text(row: Row, column: string): string {
  const value = row[column];
  if (typeof value !== "string") throw mismatch(column, "text", value ?? null);
  return value;
}

/** An INTEGER or REAL column. */
export function num(row: Row, column: string): number {
  const value = row[column];
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  throw mismatch(column, "a number", value ?? null);
}

/** A nullable INTEGER or REAL column. */
export function numOrNull(row: Row, column: string): number | null {
  return row[column] === null ? null : num(row, column);
}

/** A nullable TEXT column. */
export function textOrNull(row: Row, column: string): string | null {
  return row[column] === null ? null : text(row, column);
}
