/**
 * Unions for `schema_check.ts`: zod answers a union with its first option that succeeds, so an
 * option's check may answer only when every option before it is certainly refused.
 * @module
 */
import { type Check, type Def, isObject, type Schema } from "./schema_check.ts";

/** A value zod certainly refuses for `schema` (a wrong type, a literal field that differs); false
 * when that cannot be told cheaply. */
function ruledOut(schema: Schema): Check {
  const def = schema._zod.def;
  switch (def.type) {
    case "string":
      return (v) => typeof v !== "string";
    case "number":
      return (v) => typeof v !== "number";
    case "boolean":
      return (v) => typeof v !== "boolean";
    case "null":
      return (v) => v !== null;
    case "array":
      return (v) => !Array.isArray(v);
    case "record":
      return (v) => !isObject(v);
    case "literal":
    case "enum": {
      const values: unknown[] = def.type === "literal"
        ? [...(def.values ?? [])]
        : Object.values(def.entries ?? {});
      return (v) => !values.includes(v);
    }
    case "optional": {
      const inner = ruledOut(def.innerType!);
      return (v) => v !== undefined && inner(v);
    }
    case "nullable": {
      const inner = ruledOut(def.innerType!);
      return (v) => v !== null && inner(v);
    }
    case "object": {
      const literals = Object.entries(def.shape ?? {})
        .filter(([, field]) => field._zod.def.type === "literal")
        .map(([key, field]) => [key, ruledOut(field)] as const);
      return (v) => !isObject(v) || literals.some(([key, out]) => out(v[key]));
    }
    default:
      return () => false;
  }
}

/** zod answers a union with its first option that succeeds, so an option's check may answer
 * only when every option before it is certainly refused; a discriminated union picks by its
 * discriminator, which each option must hold as a required literal; an exclusive union (`xor`)
 * is zod's. */
export function compileUnion(def: Def, compile: (schema: Schema) => Check | null): Check | null {
  if (def.checks?.length) return null;
  const options = def.options ?? [];
  if (def.discriminator !== undefined) {
    const tagged = options.every((o) =>
      o._zod.def.type === "object" && o._zod.def.shape?.[def.discriminator!]?._zod.def.type ===
        "literal"
    );
    if (!tagged) return null;
  } else if (def.inclusive === false) return null;
  const checks = options.map(compile);
  if (checks.some((c) => c === null)) return null;
  const pairs = options.map((o, i) => [checks[i]!, ruledOut(o)] as const);
  return (v) => {
    for (const [check, out] of pairs) {
      if (check(v)) return true;
      if (!out(v)) return false;
    }
    return false;
  };
}
