/**
 * Typed cells of a result row, the same for every dialect: the refusal when the schema and the
 * code disagree, a TEXT read, and {@link Cells}, how a dialect's own `rows.ts` reads each kind of
 * column, so a row maps to a record by one function whatever the database.
 * @module
 */

/** How one dialect reads the cells of its result rows `R`. */
export interface Cells<R> {
  /** A TEXT column. */
  text(row: R, column: string): string;
  /** A nullable TEXT column. */
  textOrNull(row: R, column: string): string | null;
  /** A numeric column. */
  num(row: R, column: string): number;
  /** A nullable numeric column. */
  numOrNull(row: R, column: string): number | null;
  /** A flag: SQLite stores 0 or 1, Postgres a real BOOLEAN. */
  bool(row: R, column: string): boolean;
}

/** The error when `column` does not hold what the code expects. */
export function schemaMismatch(column: string, expected: string, value: unknown): Error {
  return new Error(
    `store schema mismatch: column "${column}" should be ${expected}, got ${typeof value}`,
  );
}

/** A TEXT column. */
export function text(row: Readonly<Record<string, unknown>>, column: string): string {
  const value = row[column];
  if (typeof value !== "string") throw schemaMismatch(column, "text", value ?? null);
  return value;
}
