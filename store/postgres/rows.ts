/**
 * Typed reads of Postgres result rows, failing loudly when the schema and the code disagree.
 * @module
 */
import type { SqlRow } from "./sql_client.ts";
import { type Cells, schemaMismatch, text } from "../row_cells.ts";

export { text } from "../row_cells.ts";

/** A numeric column (BIGINT and NUMERIC come back as numbers, or as decimal strings). */
export function num(row: SqlRow, column: string): number {
  const value = row[column];
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) {
    return Number(value);
  }
  throw schemaMismatch(column, "a number", value ?? null);
}

/** A nullable numeric column. */
export function numOrNull(row: SqlRow, column: string): number | null {
  return row[column] === null || row[column] === undefined ? null : num(row, column);
}

/** A nullable TEXT column. */
export function textOrNull(row: SqlRow, column: string): string | null {
  return row[column] === null || row[column] === undefined ? null : text(row, column);
}

/** A BOOLEAN column. */
export function bool(row: SqlRow, column: string): boolean {
  const value = row[column];
  if (typeof value !== "boolean") throw schemaMismatch(column, "a boolean", value ?? null);
  return value;
}

/** Postgres's cells: a flag is a real BOOLEAN. */
export const PG_CELLS: Cells<SqlRow> = { text, textOrNull, num, numOrNull, bool };
