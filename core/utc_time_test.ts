import assert from "node:assert/strict";
import { parseUtcTime } from "./utc_time.ts";

Deno.test("parseUtcTime: a date is midnight UTC", () => {
  assert.equal(parseUtcTime("2027-01-01"), Date.UTC(2027, 0, 1));
});

Deno.test("parseUtcTime: a date-time without an offset is UTC, with one it is honoured", () => {
  assert.equal(parseUtcTime("2027-01-01T12:00"), Date.UTC(2027, 0, 1, 12));
  assert.equal(parseUtcTime("2027-01-01 12:00:30"), Date.UTC(2027, 0, 1, 12, 0, 30));
  assert.equal(parseUtcTime("2027-01-01T12:00:00.250Z"), Date.UTC(2027, 0, 1, 12, 0, 0, 250));
  assert.equal(parseUtcTime("2027-01-01T12:00:00+02:00"), Date.UTC(2027, 0, 1, 10));
  assert.equal(parseUtcTime("2027-01-01T12:00:00-0130"), Date.UTC(2027, 0, 1, 13, 30));
});

Deno.test("parseUtcTime: anything else is null", () => {
  for (const text of ["", "tomorrow", "2027-13-01", "2027-01-01T25:00", "1700000000", "27-01-01"]) {
    assert.equal(parseUtcTime(text), null, text);
  }
});
