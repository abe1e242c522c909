import assert from "node:assert/strict";
import { chainSteps, runStep, type Step, stepStream } from "./step.ts";

const double: Step<number, number> = { transform: (n, out) => out.enqueue(n * 2) };
const pairs = (): Step<number, string> => {
  let held: number | null = null;
  return {
    transform(n, out) {
      if (held === null) held = n;
      else {
        out.enqueue(`${held}+${n}`);
        held = null;
      }
    },
    flush(out) {
      if (held !== null) out.enqueue(`${held}`);
    },
  };
};

Deno.test("chainSteps feeds the first step's output into the second, flushing in order", () => {
  assert.deepEqual(runStep(chainSteps(double, pairs()), [1, 2, 3]), ["2+4", "6"]);
});

Deno.test("a chained step that stores its sink at start keeps working", () => {
  let sink: { enqueue(s: string): void } | null = null;
  const remembering: Step<number, string> = {
    start: (out) => void (sink = out),
    transform: (n) => sink!.enqueue(`#${n}`),
  };
  assert.deepEqual(runStep(chainSteps(double, remembering), [1, 5]), ["#2", "#10"]);
});

Deno.test("stepStream runs a step as a TransformStream", async () => {
  const out = await Array.fromAsync(
    ReadableStream.from([1, 2, 3]).pipeThrough(stepStream(pairs())),
  );
  assert.deepEqual(out, ["1+2", "3"]);
});
