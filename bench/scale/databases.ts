/**
 * Throw-away Postgres databases for the scale-out bench: `gatehouse_bench_<random>`, created on
 * the server of an admin URL and dropped after the run, so no run sees another's rows.
 * @module
 */
import postgres from "postgres";

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

/** A database name the bench may create: `gatehouse_bench_` and 12 hex characters. */
export function benchDatabaseName(random: Uint8Array = crypto.getRandomValues(new Uint8Array(6))) {
  return `gatehouse_bench_${[...random].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Creates a fresh database on the server of `adminUrl`. */
export async function createBenchDatabase(
  adminUrl: string = DEFAULT_POSTGRES_ADMIN_URL,
): Promise<BenchDatabase> {
  const name = benchDatabaseName();
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let reader: postgres.Sql | null = null;
  return {
    url: url.toString(),
    name,
    async count(table: string) {
      reader ??= postgres(url.toString(), { max: 1, onnotice: () => {} });
      const rows = await reader.unsafe(`SELECT count(*)::int AS n FROM ${table}`);
      return Number(rows[0]?.n ?? 0);
    },
    async drop() {
      await reader?.end();
      reader = null;
      const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await sql.end();
      }
    },
  };
}
