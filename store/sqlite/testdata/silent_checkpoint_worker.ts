/**
 * A checkpoint worker that opens and then never answers a checkpoint (`wal_checkpointer_test.ts`:
 * the writer must take checkpoints back from a stuck worker).
 * @module
 */
/// <reference lib="deno.worker" />
import type { CheckpointCommand, CheckpointReport } from "../wal_checkpointer.ts";

self.onmessage = (event: MessageEvent<CheckpointCommand>) => {
  const report = (message: CheckpointReport) => self.postMessage(message);
  if (event.data.type === "open") report({ type: "opened" });
  if (event.data.type === "close") {
    report({ type: "closed" });
    self.close();
  }
};
