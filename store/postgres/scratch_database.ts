/**
 * Throw-away Postgres databases, `<prefix>_<random>`, created on the server of an admin URL and
 * dropped afterwards, so no run sees another's rows: the store's tests on a real server
 * (`pg_test_kit.ts`) and the scale-out bench (`bench/scale/databases.ts`) both make theirs here.
 * @module
 */
import postgres from "postgres";

/** A database made for one run. */
export interface ScratchDatabase {
  /** `<prefix>_` and 12 hex characters. */
  name: string;
  /** Its URL: the admin URL with the database name replaced. */
  url: URL;
  /** Drops it, ending every connection still open on it. */
  drop(): Promise<void>;
}

/** A database name: `prefix`, `_` and `random` in hex (6 fresh random bytes unless given). */
export function scratchDatabaseName(
  prefix: string,
  random: Uint8Array = crypto.getRandomValues(new Uint8Array(6)),
): string {
  return `${prefix}_${[...random].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Runs `statement` on one admin connection to the server of `adminUrl`, then ends it. */
async function onServer(adminUrl: string, statement: string): Promise<void> {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}

/** Creates a fresh database named after `prefix` on the server of `adminUrl`. */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
): Promise<ScratchDatabase> {
  const name = scratchDatabaseName(prefix);
  await onServer(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url,
    drop: () => onServer(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
