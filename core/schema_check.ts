/**
 * A compiled check for zod schemas, so a valid body is validated without zod building a copy of
 * it. zod's `safeParse` walks a loose object's every extra key through its catchall and returns a
 * fresh object per level: on a translated Messages request that was about a tenth of the
 * request's CPU, and the route's own boundary schema parses the same body first.
 *
 * `compileCheck` turns a schema into a predicate that is true only for a value zod accepts and
 * would return unchanged (same keys, same values: no transform, default or coercion). It knows
 * the plain shapes the wire schemas are made of; a schema with anything else (a refinement, a
 * transform, a string format, a lazy or recursive type) compiles to no check at all. So it is
 * never needed for correctness: `safeParseChecked` answers `{ success: true, data: value }` when
 * the check passes and asks zod otherwise, so every refusal and its issues are zod's own.
 * @module
 */
import type { z } from "zod";
import { compileUnion } from "./schema_union.ts";

/** A predicate: true only when zod would accept `value` and return it unchanged. */
export type Check = (value: unknown) => boolean;

/** The parts of zod's internal definitions the compiler reads. */
export interface Def {
  type: string;
  check?: string;
  checks?: ReadonlyArray<{ _zod: { def: Def } }>;
  coerce?: boolean;
  format?: string;
  minimum?: number;
  maximum?: number;
  value?: unknown;
  inclusive?: boolean;
  values?: readonly unknown[];
  entries?: Record<string, unknown>;
  element?: Schema;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  options?: readonly Schema[];
  keyType?: Schema;
  valueType?: Schema;
  innerType?: Schema;
  discriminator?: string;
}
/** A zod schema as the compiler sees it. */
export type Schema = { _zod: { def: Def } };

const INT_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

/** zod's test of an object (arrays are not). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (!isObject(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** Both checks, or the one that is there. */
const both = (a: Check, b: Check | null): Check => b === null ? a : (v) => a(v) && b(v);

/** The checks (`.min()`, `.int()`, `.positive()` ...) of a string, number or array; null when
 * there are none; undefined when one is not understood. */
function checksOf(def: Def, kind: "string" | "number" | "array"): Check | null | undefined {
  const list: Def[] = (def.checks ?? []).map((c) => c._zod.def);
  // A number format (`z.int()`) is a schema and its own check at once.
  if (def.check !== undefined) list.unshift(def);
  let out: Check | null = null;
  for (const c of list) {
    const one = checkOf(c, kind);
    if (one === undefined) return undefined;
    out = out === null ? one : both(out, one);
  }
  return out;
}

function checkOf(c: Def, kind: "string" | "number" | "array"): Check | undefined {
  switch (c.check) {
    case "min_length": {
      const min = c.minimum!;
      if (kind === "array") return (v) => (v as unknown[]).length >= min;
      // zod counts code points; a length between min and 2·min could hold surrogate pairs, so
      // it is left to zod.
      if (kind === "string") return (v) => (v as string).length >= 2 * min;
      return undefined;
    }
    case "max_length": {
      // Code points never outnumber UTF-16 units.
      const max = c.maximum!;
      if (kind === "array" || kind === "string") {
        return (v) => (v as { length: number }).length <= max;
      }
      return undefined;
    }
    case "greater_than": {
      const bound = c.value;
      if (kind !== "number" || typeof bound !== "number") return undefined;
      return c.inclusive ? (v) => (v as number) >= bound : (v) => (v as number) > bound;
    }
    case "less_than": {
      const bound = c.value;
      if (kind !== "number" || typeof bound !== "number") return undefined;
      return c.inclusive ? (v) => (v as number) <= bound : (v) => (v as number) < bound;
    }
    case "number_format": {
      const range = kind === "number" ? INT_RANGES[c.format ?? ""] : undefined;
      if (range === undefined) return undefined;
      const [lo, hi] = range;
      return (v) => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;
    }
    default:
      return undefined;
  }
}

/** Compiles `schema`; null when it holds something the compiler does not know. */
function compile(schema: Schema): Check | null {
  const def = schema._zod.def;
  switch (def.type) {
    case "unknown":
    case "any":
      return () => true;
    case "null":
      return (v) => v === null;
    case "boolean":
      return def.coerce ? null : (v) => typeof v === "boolean";
    case "string": {
      if (def.coerce || def.format !== undefined) return null;
      const checks = checksOf(def, "string");
      if (checks === undefined) return null;
      return both((v) => typeof v === "string", checks);
    }
    case "number": {
      if (def.coerce) return null;
      const checks = checksOf(def, "number");
      if (checks === undefined) return null;
      return both((v) => typeof v === "number" && Number.isFinite(v), checks);
    }
    case "literal": {
      const values = def.values ?? [];
      if (!values.every((x) => x === null || typeof x !== "object")) return null;
      return values.length === 1
        ? ((only) => (v: unknown) => v === only)(values[0])
        : (v) => values.includes(v);
    }
    case "enum": {
      const values: unknown[] = Object.values(def.entries ?? {});
      if (values.some((x) => typeof x !== "string")) return null;
      return (v) => values.includes(v);
    }
    case "optional": {
      const inner = compile(def.innerType!);
      return inner === null ? null : (v) => v === undefined || inner(v);
    }
    case "nullable": {
      const inner = compile(def.innerType!);
      return inner === null ? null : (v) => v === null || inner(v);
    }
    case "array": {
      const element = compile(def.element!);
      const checks = checksOf(def, "array");
      if (element === null || checks === undefined) return null;
      // An index loop: a hole is checked as the undefined zod sees there.
      return both((v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      }, checks);
    }
    case "union":
      return compileUnion(def, compile);
    case "record":
      return compileRecord(def);
    case "object":
      return compileObject(def);
    default:
      return null;
  }
}

function compileRecord(def: Def): Check | null {
  const key = def.keyType!._zod.def;
  if (key.type !== "string" || key.checks?.length || def.checks?.length) return null;
  if (key.format !== undefined || key.check !== undefined) return null;
  const value = compile(def.valueType!);
  if (value === null) return null;
  const type = def.valueType!._zod.def.type;
  // zod leaves an own `__proto__` key out of its copy.
  if (type === "unknown" || type === "any") {
    return (v) => isPlainObject(v) && !Object.hasOwn(v, "__proto__");
  }
  return (v) => {
    if (!isPlainObject(v) || Object.hasOwn(v, "__proto__")) return false;
    for (const k in v) if (Object.hasOwn(v, k) && !value(v[k])) return false;
    return true;
  };
}

function compileObject(def: Def): Check | null {
  if (def.checks?.length) return null;
  const fields: Array<[string, Check]> = [];
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    // zod reads such a key through the prototype chain (an absent `toString` is a function).
    if (key in Object.prototype) return null;
    const check = compile(field);
    if (check === null) return null;
    // zod requires a key whose schema is not optional, even `z.unknown()`: a missing one is
    // left to zod, and so is an optional one present as undefined (refused by `exactOptional`).
    const optional = field._zod.def.type === "optional";
    fields.push([key, (v) => {
      const value = (v as Record<string, unknown>)[key];
      if (value !== undefined) return check(value);
      return optional && !Object.hasOwn(v as object, key);
    }]);
  }
  const shape = (v: unknown): v is Record<string, unknown> => {
    if (!isObject(v)) return false;
    for (const [, check] of fields) if (!check(v)) return false;
    return true;
  };
  const catchall = def.catchall?._zod.def.type;
  // A loose object keeps any extra key as it is, except an own `__proto__`, which zod leaves out.
  if (catchall === "unknown" || catchall === "any") {
    return (v) => shape(v) && !Object.hasOwn(v, "__proto__");
  }
  // A plain object strips extra keys and a strict one refuses them: either way a value with one
  // is not returned unchanged, so zod decides.
  if (catchall === undefined || catchall === "never") {
    const known = new Set(fields.map(([key]) => key));
    return (v) => {
      if (!shape(v)) return false;
      for (const k in v) if (Object.hasOwn(v, k) && !known.has(k)) return false;
      return true;
    };
  }
  return null;
}

const compiled = new WeakMap<object, Check | null>();

/** The compiled check of `schema` (cached), or null when it cannot be compiled. */
export function compileCheck(schema: z.ZodType): Check | null {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = compile(schema as unknown as Schema);
    compiled.set(schema, check);
  }
  return check;
}

/** `schema.safeParse(value)`, answered without zod when the compiled check passes: then the data
 * is `value` itself, not a copy, so callers must not mutate what they parsed. */
export function safeParseChecked<T extends z.ZodType>(
  schema: T,
  value: unknown,
): z.ZodSafeParseResult<z.output<T>> {
  const check = compileCheck(schema);
  if (check !== null && check(value)) return { success: true, data: value as z.output<T> };
  return schema.safeParse(value) as z.ZodSafeParseResult<z.output<T>>;
}
