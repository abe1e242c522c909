/**
 * The worker of `wal_checkpointer.ts`: its own connection to the database file, which copies the
 * write-ahead log back into the file when the writer asks (`PRAGMA wal_checkpoint(PASSIVE)`:
 * never waits for the writer, never blocks it), and says when it is done.
 * The copy and its two fsyncs are what stalled the gateway's event loop for 10–25 ms whenever a
 * ledger commit crossed SQLite's automatic checkpoint threshold.
 * @module
 */
/// <reference lib="deno.worker" />
import { DatabaseSync } from "node:sqlite";
import { BUSY_TIMEOUT_MS } from "./open.ts";
import type { CheckpointCommand, CheckpointReport } from "./wal_checkpointer.ts";

let db: DatabaseSync | null = null;

function report(message: CheckpointReport): void {
  self.postMessage(message);
}

/** Runs `work`; a throw is reported as the worker's failure (the writer then checkpoints by
 * itself again). */
function attempt(work: () => void): boolean {
  try {
    work();
    return true;
  } catch (error) {
    report({ type: "failed", message: error instanceof Error ? error.message : String(error) });
    return false;
  }
}

self.onmessage = (event: MessageEvent<CheckpointCommand>) => {
  const command = event.data;
  switch (command.type) {
    case "open":
      if (
        attempt(() => {
          db = new DatabaseSync(command.path);
          // A passive checkpoint never waits for a lock; opening the log's index after another
          // connection's crash may.
          db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
        })
      ) report({ type: "opened" });
      break;
    case "checkpoint":
      // exec, not a prepared statement's get(): a statement left stepped holds a read
      // transaction, and a log that a reader holds is never started over.
      if (attempt(() => db!.exec("PRAGMA wal_checkpoint(PASSIVE)"))) {
        report({ type: "checkpointed" });
      }
      break;
    case "close":
      if (db?.isOpen) db.close();
      report({ type: "closed" });
      self.close();
      break;
    default: {
      const unknown: never = command;
      throw new Error(`checkpoint worker: unknown command ${JSON.stringify(unknown)}`);
    }
  }
};
