import assert from "node:assert/strict";
import { itemIdAllocator, responseIdFor } from "./ids.ts";

Deno.test("responseIdFor: deterministic resp_ ids", () => {
  assert.equal(responseIdFor("resp_1"), "resp_1");
  assert.equal(responseIdFor("msg_01AB"), "resp_msg_01AB");
  assert.equal(responseIdFor("chatcmpl-9:x"), "resp_chatcmpl-9x");
  assert.match(responseIdFor(""), /^resp_[0-9a-f]{32}$/);
});

Deno.test("itemIdAllocator: upstream ids when free, numbered ids otherwise, all unique", () => {
  const next = itemIdAllocator("resp_abc");
  assert.equal(next("msg"), "msg_abc_0");
  assert.equal(next("fc", "fc_up"), "fc_up");
  assert.equal(next("fc", "fc_up"), "fc_abc_2");
  assert.equal(next("rs"), "rs_abc_3");
});
