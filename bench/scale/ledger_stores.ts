/**
 * The ledger-rate measurement on each store kind: a temp SQLite file, and a fresh Postgres
 * database, each opened with `openStore` as the gateway opens it and removed after.
 * @module
 */
import { DatabaseSync } from "node:sqlite";
import { openStore } from "../../store/open_store.ts";
import { createBenchDatabase } from "./databases.ts";
import { type LedgerRate, measureLedgerRate } from "./ledger_rate.ts";

/** A store kind's figure, or why it could not be measured. */
export type LedgerOutcome = LedgerRate | { store: "sqlite" | "postgres"; error: string };

function failed(store: "sqlite" | "postgres", error: unknown): LedgerOutcome {
  return { store, error: error instanceof Error ? error.message : String(error) };
}

/** `rows` ledger rows through the SQLite store on a temp file. */
export async function sqliteLedgerRate(rows: number): Promise<LedgerOutcome> {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_ledger_" });
  try {
    const path = `${dir}/ledger.db`;
    const store = await openStore(path);
    const reader = new DatabaseSync(path, { readOnly: true });
    try {
      const count = () => {
        const row = reader.prepare("SELECT count(*) AS n FROM usage").get();
        return Promise.resolve(Number(row?.n ?? 0));
      };
      return await measureLedgerRate(store, rows, count);
    } finally {
      reader.close();
      await store.close();
    }
  } catch (error) {
    return failed("sqlite", error);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** `rows` ledger rows through the Postgres store on a fresh database of `adminUrl`'s server. */
export async function postgresLedgerRate(rows: number, adminUrl: string): Promise<LedgerOutcome> {
  let database;
  try {
    database = await createBenchDatabase(adminUrl);
  } catch (error) {
    return failed("postgres", error);
  }
  try {
    const store = await openStore(database.url);
    try {
      return await measureLedgerRate(store, rows, () => database.count("usage"));
    } finally {
      await store.close();
    }
  } catch (error) {
    return failed("postgres", error);
  } finally {
    await database.drop().catch(() => {});
  }
}
