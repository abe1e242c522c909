/**
 * What a request's one settle hands on (`Lifecycle.settle` decides the row; this does the
 * writing): the admission released with what was spent, the ledger row written, and an ending
 * without an answer logged. Each failure is logged and stops nothing else: an admitter that
 * throws on release must not cost the ledger its row.
 * @module
 */
import type { UsageRecord } from "../store/store.ts";
import type { Admission, Spent } from "./admission.ts";
import type { GatewayDeps } from "./exchange.ts";

/** Outcomes that are an answer, or a refusal or leaving that needs no warning. */
const QUIET_OUTCOMES = new Set(["ok", "client_disconnect", "rejected", "budget_cut"]);

/** Releases `admission` with `spent`, writes `record`, and warns of an ending without answer. */
export function handOn(
  deps: GatewayDeps,
  admission: Admission | null,
  spent: Spent,
  record: UsageRecord,
): void {
  const requestId = record.requestId;
  try {
    admission?.release(spent);
  } catch (error) {
    deps.log.error("releasing the admission failed", { requestId, error: String(error) });
  }
  deps.store.recordUsage(record).catch((error) =>
    deps.log.error("ledger write failed", { requestId, error: String(error) })
  );
  if (record.outcome === "ok" && record.attempts > 1) {
    // Each failed attempt had its warning; this says the request was saved, and by whom.
    deps.log.info("request answered after retries", {
      requestId,
      attempts: record.attempts,
      model: record.model,
      servedModel: record.servedModel,
      provider: record.upstream,
    });
  }
  if (QUIET_OUTCOMES.has(record.outcome)) return;
  if (record.outcome === "shutdown") {
    deps.log.info("request ended by the shutdown", { requestId, status: record.status });
    return;
  }
  deps.log.warn("request ended without an answer", {
    requestId,
    outcome: record.outcome,
    status: record.status,
    model: record.model,
    provider: record.upstream,
    upstreamId: record.upstreamId,
  });
}
