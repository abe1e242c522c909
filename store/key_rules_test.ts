import assert from "node:assert/strict";
import { checkRotationGrace, checkTeamId, teamHasMembers, teamMissing } from "./key_rules.ts";

Deno.test("key rules: team ids and rotation graces are checked; refusals name the fix", () => {
  checkTeamId("eng.core-1");
  assert.throws(() => checkTeamId("Eng"), /team id "Eng" is not valid/);
  checkRotationGrace(0);
  assert.throws(() => checkRotationGrace(-1), RangeError);
  assert.throws(() => checkRotationGrace(Number.NaN), RangeError);
  assert.match(teamMissing("ops").message, /create it first with `teams create ops`/);
  assert.equal(
    teamHasMembers("a", 2).message,
    'team "a" still has 2 keys; move or revoke them first',
  );
});
