/**
 * `stop_details` between the Anthropic wire and core. Anthropic explains a refusal there
 * (`{"type":"refusal","category":"cyber","explanation":"...","recommended_model":"..."}`), in
 * the message body and in the streamed `message_delta.delta`; it is `null` when the stop
 * reason has nothing to add.
 * @module
 */
import type { Converted, Warning } from "../../core/convert.ts";
import type { StopDetails } from "../../core/response.ts";
import type { WireStopDetails } from "./wire.ts";

type Json = Record<string, unknown>;

/** Wire `stop_details` → core details (undefined when absent, null or empty). `field` is the
 * wire path used in warnings: `recommended_model` names a model of the provider's catalog, not
 * one the client can ask gatehouse for, and a detail type other than `refusal` has no core
 * counterpart; both are dropped with a warning. */
export function stopDetailsFromAnthropic(
  raw: unknown,
  field = "stop_details",
): Converted<StopDetails | undefined> {
  if (typeof raw !== "object" || raw === null) return { value: undefined, warnings: [] };
  const wire = raw as Json;
  const warnings: Warning[] = [];
  if (wire.type !== "refusal") {
    warnings.push({
      field: `${field}.type`,
      message: `stop_details of type ${JSON.stringify(wire.type)} have no counterpart; dropped`,
    });
    return { value: undefined, warnings };
  }
  if (typeof wire.recommended_model === "string") {
    warnings.push({
      field: `${field}.recommended_model`,
      message: "the model the provider recommends is an upstream model id, not a catalog one; " +
        "dropped",
    });
  }
  const value: StopDetails = {};
  if (typeof wire.explanation === "string" && wire.explanation !== "") {
    value.explanation = wire.explanation;
  }
  if (typeof wire.category === "string" && wire.category !== "") value.category = wire.category;
  return { value: Object.keys(value).length > 0 ? value : undefined, warnings };
}

/** Core details → wire `stop_details` (null when there are none). Core only holds refusal
 * details, so the type is always `refusal`; a missing field is `null`, as Anthropic sends it. */
export function stopDetailsToAnthropic(details: StopDetails | undefined): WireStopDetails | null {
  if (details === undefined) return null;
  return {
    type: "refusal",
    category: details.category ?? null,
    explanation: details.explanation ?? null,
  };
}
