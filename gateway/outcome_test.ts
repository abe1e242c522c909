import assert from "node:assert/strict";
import { GatewayError, streamIncomplete } from "../core/errors.ts";
import { streamIdleTimeout } from "./idle_cutoff.ts";
import { endingOfError, streamOutcome } from "./outcome.ts";

const upstream = (kind: "upstream" | "timeout" | "rate_limit", status: 404 | 429 | 502 | 504) =>
  new GatewayError(kind, status, "x");

Deno.test("endingOfError: refusals before the attempt, the upstream's from it on, ours otherwise", () => {
  assert.deepEqual(endingOfError(upstream("upstream", 404), "resolve", false), {
    outcome: "rejected",
    status: 404,
  });
  assert.deepEqual(endingOfError(upstream("rate_limit", 429), "admit", false), {
    outcome: "rejected",
    status: 429,
  });
  assert.deepEqual(endingOfError(upstream("timeout", 504), "attempt", false), {
    outcome: "timeout",
    status: 504,
  });
  assert.deepEqual(endingOfError(streamIncomplete("p", "the end"), "deliver", false), {
    outcome: "upstream_cut",
    status: 502,
  });
  assert.deepEqual(endingOfError(new TypeError("bug"), "deliver", false), {
    outcome: "internal_error",
    status: 500,
  });
  assert.deepEqual(endingOfError(new TypeError("aborted"), "attempt", true), {
    outcome: "client_disconnect",
    status: 499,
  });
});

Deno.test("streamOutcome: cut, silence, or the upstream's own error event whatever its kind", () => {
  assert.equal(streamOutcome(streamIncomplete("p", "message_stop")), "upstream_cut");
  assert.equal(streamOutcome(streamIdleTimeout("p", 1000)), "timeout");
  // An upstream's timeout_error event is its error, not the gateway's timeout.
  assert.equal(streamOutcome(upstream("timeout", 504)), "upstream_error");
  assert.equal(streamOutcome(upstream("upstream", 502)), "upstream_error");
});
