import assert from "node:assert/strict";
import { Slots } from "./slots.ts";

Deno.test("Slots: add, remove and reuse; a stale removal changes nothing", () => {
  const slots = new Slots<{ id: number }>();
  const a = { id: 1 }, b = { id: 2 }, c = { id: 3 };
  const sa = slots.add(a);
  const sb = slots.add(b);
  assert.equal(slots.size, 2);
  assert.deepEqual(slots.values(), [a, b]);
  assert.equal(slots.remove(sa, a), true);
  assert.equal(slots.remove(sa, a), false, "removed once");
  assert.equal(slots.size, 1);
  const sc = slots.add(c);
  assert.equal(sc, sa, "the freed slot is reused");
  assert.equal(slots.remove(sa, a), false, "the slot now holds another entry");
  assert.equal(slots.at(sc), c);
  assert.equal(slots.capacity, 2);
  assert.deepEqual(slots.values().map((e) => e.id).sort(), [2, 3]);
  assert.equal(slots.remove(sb, b) && slots.remove(sc, c), true);
  assert.equal(slots.size, 0);
  assert.deepEqual(slots.values(), []);
});
