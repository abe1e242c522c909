import assert from "node:assert/strict";
import { ResponseHead } from "./response_head.ts";

Deno.test("ResponseHead: a name set again replaces its value; respond carries every header", async () => {
  const head = new ResponseHead();
  head.set("x-request-id", "req_1");
  head.set("content-type", "text/event-stream");
  head.set("content-type", "application/json");
  const response = head.respond('{"ok":true}', 201);
  assert.equal(response.status, 201);
  assert.deepEqual([...response.headers], [
    ["content-type", "application/json"],
    ["x-request-id", "req_1"],
  ]);
  assert.deepEqual(await response.json(), { ok: true });
});

Deno.test("ResponseHead: a text body without a content-type keeps the runtime's default", () => {
  const response = new ResponseHead().respond("plain", 200);
  assert.equal(response.headers.get("content-type"), "text/plain;charset=UTF-8");
});
