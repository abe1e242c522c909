/**
 * Policies as stored: a JSON object in a TEXT column (`api_keys.policy`, `teams.policy`), in the
 * internal field names of {@link Policy}.
 * @module
 */
import { BUDGET_PERIODS, type Policy } from "../governance/policy.ts";

const NUMBER_FIELDS = ["rpm", "tpm", "maxParallel", "budgetUsd", "expiresAt"] as const;

function mismatch(detail: string, stored: string): Error {
  return new Error(`store schema mismatch: a stored policy ${detail}: ${stored.slice(0, 200)}`);
}

/** The JSON stored for `policy`. */
export function writePolicy(policy: Policy): string {
  return JSON.stringify(policy);
}

/** Reads a stored policy, checking the type of every field it knows; throws on a mismatch. */
export function readPolicy(stored: string): Policy {
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    throw mismatch("is not JSON", stored);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw mismatch("is not an object", stored);
  }
  const fields = value as Record<string, unknown>;
  for (const name of NUMBER_FIELDS) {
    const field = fields[name];
    if (field !== undefined && (typeof field !== "number" || !Number.isFinite(field))) {
      throw mismatch(`has a non-number ${name}`, stored);
    }
  }
  const models = fields.models;
  if (
    models !== undefined &&
    !(Array.isArray(models) && models.every((model) => typeof model === "string"))
  ) {
    throw mismatch("has models that are not a list of strings", stored);
  }
  const period = fields.budgetPeriod;
  if (period !== undefined && !(BUDGET_PERIODS as readonly unknown[]).includes(period)) {
    throw mismatch("has an unknown budgetPeriod", stored);
  }
  return fields as Policy;
}
