/**
 * Typed reads of `node:sqlite` result rows. Columns come back as `SQLOutputValue`; these narrow
 * them and fail loudly when the schema and the code disagree.
 * @module
 */
import type { SQLOutputValue } from "node:sqlite";
import { type Cells, schemaMismatch, text } from "../row_cells.ts";

export { text } from "../row_cells.ts";

/** A result row as `node:sqlite` returns it. */
export type Row = Record<string, SQLOutputValue>;

/** An INTEGER or REAL column. */
export function num(row: Row, column: string): number {
  const value = row[column];
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  throw schemaMismatch(column, "a number", value ?? null);
}

/** A nullable INTEGER or REAL column. */
export function numOrNull(row: Row, column: string): number | null {
  return row[column] === null ? null : num(row, column);
}

/** A nullable TEXT column. */
export function textOrNull(row: Row, column: string): string | null {
  return row[column] === null ? null : text(row, column);
}

/** SQLite's cells: a flag is an INTEGER, 0 for false. */
export const SQLITE_CELLS: Cells<Row> = {
  text,
  textOrNull,
  num,
  numOrNull,
  bool: (row, column) => num(row, column) !== 0,
};
