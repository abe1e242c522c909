/**
 * Throw-away Postgres databases for the scale-out bench: `gatehouse_bench_<random>`, created on
 * the server of an admin URL and dropped after the run, so no run sees another's rows.
 * @module
 */
import postgres from "postgres";
import { createScratchDatabase } from "../../store/postgres/scratch_database.ts";

/** Where the bench creates its databases unless `--postgres=URL` says otherwise. */
export const DEFAULT_POSTGRES_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** A fresh database. */
export interface BenchDatabase {
  /** Its URL (the admin URL with the database name replaced). */
  url: string;
  name: string;
  /** Counts the rows of `table` (over one connection kept until `drop`). */
  count(table: string): Promise<number>;
  /** Drops it (closing every connection still open on it). */
  drop(): Promise<void>;
}

/** Creates a fresh database on the server of `adminUrl`. */
export async function createBenchDatabase(
  adminUrl: string = DEFAULT_POSTGRES_ADMIN_URL,
): Promise<BenchDatabase> {
  const database = await createScratchDatabase(adminUrl, "gatehouse_bench");
  const url = database.url.toString();
  let reader: postgres.Sql | null = null;
  return {
    url,
    name: database.name,
    async count(table: string) {
      reader ??= postgres(url, { max: 1, onnotice: () => {} });
      const rows = await reader.unsafe(`SELECT count(*)::int AS n FROM ${table}`);
      return Number(rows[0]?.n ?? 0);
    },
    async drop() {
      await reader?.end();
      reader = null;
      await database.drop();
    },
  };
}
