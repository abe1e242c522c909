/**
 * Typed reads of Postgres result rows, failing loudly when the schema and the code disagree.
 * @module
 */
import type { SqlRow } from "./sql_client.ts";

function mismatch(column: string, expected: string, value: unknown): Error {
  return new Error(
    `store schema mismatch: column "${column}" should be ${expected}, got ${typeof value}`,
  );
}

/** A TEXT column. */
export function text(row: SqlRow, column: string): string {
  const value = row[column];
  if (typeof value !== "string") throw mismatch(column, "text", value ?? null);
  return value;
}

/** A numeric column (BIGINT and NUMERIC come back as numbers, or as decimal strings). */
export function num(row: SqlRow, column: string): number {
  const value = row[column];
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) {
    return Number(value);
  }
  throw mismatch(column, "a number", value ?? null);
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
  if (typeof value !== "boolean") throw mismatch(column, "a boolean", value ?? null);
  return value;
}
