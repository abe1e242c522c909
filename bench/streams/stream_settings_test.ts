import assert from "node:assert/strict";
import { resultsFile, runLabel, streamSettings } from "./stream_settings.ts";

Deno.test("streamSettings: --workers=N runs gatehouse on N threads, named and filed apart", () => {
  const one = streamSettings([]);
  assert.equal(one.workers, 1);
  assert.equal(one.env.GATEHOUSE_WORKERS, undefined);
  assert.equal(runLabel("gatehouse", 1), "gatehouse");
  assert.equal(resultsFile("gatehouse", 1), "streams.json");

  const two = streamSettings(["--workers=2", "--target=gatehouse,proxy"]);
  assert.equal(two.workers, 2);
  assert.equal(two.env.GATEHOUSE_WORKERS, "2");
  assert.equal(runLabel("gatehouse", 2), "gatehouse, 2 workers");
  assert.equal(resultsFile("gatehouse", 2), "streams-workers2.json");
  // The other targets are single-threaded whatever gatehouse runs on.
  assert.equal(runLabel("proxy", 2), "proxy");
  assert.equal(resultsFile("proxy", 2), "streams-proxy.json");
});

Deno.test("streamSettings: --workers does not go with looking inside the process", () => {
  assert.throws(() => streamSettings(["--workers=2", "--inspect"]), /--workers/);
  assert.throws(() => streamSettings(["--workers=2", "--cpu-profile=/tmp/p"]), /--workers/);
  assert.throws(() => streamSettings(["--workers=0"]), /--workers must be a whole number/);
});
