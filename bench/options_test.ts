import assert from "node:assert/strict";
import { checkOptions } from "./options.ts";

Deno.test("checkOptions: known names pass, with or without a value", () => {
  checkOptions(
    ["--seconds=3", "--inspect", "--only=chat-json"],
    ["seconds", "inspect", "only"],
    "x",
  );
  checkOptions([], [], "x");
});

Deno.test("checkOptions: a mistyped name, a bare word or a short flag is refused by name", () => {
  assert.throws(
    () => checkOptions(["--secnds=3"], ["seconds"], "deno task bench"),
    /deno task bench takes no argument "--secnds"; its options: --seconds/,
  );
  assert.throws(() => checkOptions(["chat-json"], ["only"], "x"), /no argument "chat-json"/);
  assert.throws(() => checkOptions(["-h"], ["only"], "x"), /no argument "-h"/);
});
