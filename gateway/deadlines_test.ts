import assert from "node:assert/strict";
import { deadline } from "./deadlines.ts";

Deno.test("deadline fires after its time and not when cancelled", async () => {
  let fired = 0;
  deadline(50, () => fired++);
  const cancel = deadline(50, () => fired += 10);
  cancel();
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(fired, 1);
});
