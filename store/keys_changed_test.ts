import assert from "node:assert/strict";
import { KeysChangedListeners } from "./keys_changed.ts";

Deno.test("KeysChangedListeners: each listener hears every emit until removed", () => {
  const errors: unknown[] = [];
  const listeners = new KeysChangedListeners((error) => errors.push(error));
  let a = 0;
  let b = 0;
  const removeA = listeners.add(() => a++);
  listeners.add(() => b++);
  listeners.add(() => {
    throw new Error("boom");
  });
  listeners.emit();
  removeA();
  listeners.emit();
  assert.deepEqual([a, b], [1, 2]);
  assert.equal(errors.length, 2, "a throwing listener is reported, the others still run");
});
