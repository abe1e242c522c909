import assert from "node:assert/strict";
import { z } from "@hono/zod-openapi";
import { parseAt } from "./validate.ts";
import { GatewayError } from "../../core/errors.ts";

Deno.test("parseAt returns the parsed value", () => {
  assert.deepEqual(parseAt(z.looseObject({ a: z.number() }), { a: 1, b: 2 }), { a: 1, b: 2 });
});

Deno.test("parseAt throws a 400 naming the prefixed path", () => {
  const schema = z.looseObject({ items: z.array(z.looseObject({ text: z.string() })) });
  assert.throws(
    () => parseAt(schema, { items: [{ text: "ok" }, { text: 5 }] }, "messages.3"),
    (err: unknown) => {
      assert.ok(err instanceof GatewayError);
      assert.equal(err.status, 400);
      assert.equal(err.param, "messages.3.items.1.text");
      assert.match(err.message, /messages\.3\.items\.1\.text: .*expected string/);
      return true;
    },
  );
});
