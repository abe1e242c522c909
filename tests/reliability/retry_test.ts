/**
 * Retries on one deployment, end to end, on every client protocol, passthrough and translated,
 * streamed and not: a retryable failure followed by an ok answer is a clean 200 after two
 * attempts; a failure the client must see (4xx, a stream broken after its first chunk) goes back
 * after one; when every attempt fails, the client gets the last failure mapped into its own
 * envelope, never a 200.
 */
import assert from "node:assert/strict";
import type { AttemptResult } from "../../store/store.ts";
import { envelopeOf, readStream } from "../governance/gov_kit.ts";
import { errorBody, type Fault, status } from "./fault_upstream.ts";
import { answerText, type Route, ROUTES, startRig } from "./reliability_rig.ts";

const HEADER_TIMEOUT_MS = 300;
const rig = await startRig({
  GATEHOUSE_RETRIES: "2",
  GATEHOUSE_UPSTREAM_TIMEOUT_MS: String(HEADER_TIMEOUT_MS),
  GATEHOUSE_STREAM_IDLE_TIMEOUT_MS: "3000",
});

/** The deployment id of `route`'s model. */
const deploymentOf = (route: Route) =>
  `${route.model}@${route.upstream === "a" ? "openai-a" : "anthropic-a"}`;

/** Reads a 200 answer and asserts it is whole and clean on the client's wire. */
async function assertClean(route: Route, response: Response, stream: boolean): Promise<void> {
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(response.headers.get("x-gatehouse-served-model"), route.model);
  if (stream) {
    const read = await readStream(route.wire, response);
    assert.equal(read.ending, "clean", JSON.stringify(read.events.at(-1)));
    assert.match(read.text, /You said: Hi/);
  } else {
    assert.match(answerText(route.wire, await response.json()), /You said: Hi/);
  }
}

interface Retryable {
  what: string;
  fault: Fault;
  result: AttemptResult;
  /** The failed attempt's upstream status (0: none came). */
  status: number;
  /** The wait the gateway must keep before the retry, ms. */
  waitMs?: number;
}

/** `c` then ok on `route`'s one deployment: a clean 200 after two attempts. */
function retriedToSuccess(route: Route, c: Retryable, stream: boolean): void {
  const mode = stream ? " stream" : "";
  Deno.test(`${route.name}${mode}: ${c.what}, then ok → 200 after 2 attempts`, async () => {
    rig.reset();
    const fake = rig.fakeOf(route);
    fake.push(c.fault);
    const response = await rig.send(route.wire, route.model, { stream });
    await assertClean(route, response, stream);
    const row = await rig.row(response);
    assert.equal(row.outcome, "ok");
    assert.equal(row.status, 200);
    assert.equal(row.attempts, 2);
    assert.equal(row.model, route.model);
    assert.equal(row.servedModel, route.model);
    const log = row.attemptLog ?? [];
    assert.deepEqual(log.map((a) => a.result), [c.result, "ok"]);
    assert.deepEqual(log.map((a) => a.status), [c.status, 200]);
    assert.deepEqual(log.map((a) => a.deployment), [deploymentOf(route), deploymentOf(route)]);
    assert.ok(row.outputTokens > 0, "the answer is billed");
    assert.equal(fake.requests.length, 2, "one retry");
    if (c.waitMs !== undefined) {
      const waited = fake.requests[1]!.time - fake.requests[0]!.time;
      assert.ok(waited >= c.waitMs - 20, `waited ${waited} ms of the ${c.waitMs} asked`);
      assert.ok(waited < c.waitMs + 700, `waited ${waited} ms, not much more than ${c.waitMs}`);
    }
    const warned = rig.warnings(row.requestId);
    assert.equal(warned.length, 1, JSON.stringify(warned));
    assert.equal(warned[0]!.deployment, deploymentOf(route));
    assert.equal(warned[0]!.result, c.result);
    assert.equal(warned[0]!.status, c.status);
  });
}

const BOTH = [false, true];
const STATUSES = [408, 500, 502, 503, 504, 529];
ROUTES.forEach((route, r) => {
  for (const stream of BOTH) {
    retriedToSuccess(route, {
      what: "a reset before headers",
      fault: "reset",
      result: "unreachable",
      status: 0,
    }, stream);
    retriedToSuccess(route, {
      what: "a 200 whose connection breaks before its first byte",
      fault: "cut_before_body",
      result: "cut",
      status: 200,
    }, stream);
  }
  retriedToSuccess(route, {
    what: "a JSON body cut short",
    fault: "cut",
    result: "cut",
    status: 200,
  }, false);
  retriedToSuccess(route, {
    what: "the wire's error event as the first event",
    fault: "error_event",
    result: "error_event",
    status: 200,
  }, true);
  // Two of the retried statuses per route, streamed and not in turn: each on two routes.
  [STATUSES[r]!, STATUSES[(r + 3) % 6]!].forEach((code, s) => {
    retriedToSuccess(route, {
      what: `HTTP ${code}`,
      fault: status(code),
      result: "retryable_status",
      status: code,
    }, (r + s) % 2 === 1);
  });
  retriedToSuccess(route, {
    what: "no headers within the header timeout",
    fault: "hang",
    result: "header_timeout",
    status: 0,
  }, r % 2 === 0);
  // The provider's own wait is kept: retry-after in seconds on one route, -ms on the others.
  const seconds = r === 0;
  retriedToSuccess(route, {
    what: seconds ? "HTTP 429 retry-after: 1" : "HTTP 429 retry-after-ms: 150",
    fault: status(429, seconds ? { "retry-after": "1" } : { "retry-after-ms": "150" }),
    result: "retryable_status",
    status: 429,
    waitMs: seconds ? 1000 : 150,
  }, r % 2 === 1);
});

// Failures the client must see: sent back after one attempt.
ROUTES.forEach((route, r) => {
  [400, 404, 422].forEach((code, s) => {
    const stream = (r + s) % 2 === 0;
    Deno.test(`${route.name}${stream ? " stream" : ""}: HTTP ${code} goes back after one attempt`, async () => {
      rig.reset();
      const fake = rig.fakeOf(route);
      fake.push(status(code));
      const response = await rig.send(route.wire, route.model, { stream });
      assert.equal(response.status, code);
      const text = await response.text();
      if (route.passthrough) {
        // The same wire: the provider's body as it came.
        assert.equal(text, errorBody(fake.requests[0]!.path, code));
      } else {
        const error = envelopeOf(route.wire, JSON.parse(text));
        assert.match(error.message, new RegExp(`HTTP ${code}: Failure ${code}`));
      }
      const row = await rig.row(response);
      assert.equal(row.outcome, "upstream_error");
      assert.equal(row.status, code);
      assert.equal(row.attempts, 1);
      assert.deepEqual(row.attemptLog?.map((a) => [a.result, a.status]), [["ok", code]]);
      assert.equal(fake.requests.length, 1);
      assert.deepEqual(rig.warnings(row.requestId), []);
    });
  });

  Deno.test(`${route.name} stream: a cut after the first chunk is not retried`, async () => {
    rig.reset();
    const fake = rig.fakeOf(route);
    fake.push("cut");
    const response = await rig.send(route.wire, route.model, { stream: true });
    assert.equal(response.status, 200);
    const read = await readStream(route.wire, response);
    assert.equal(read.ending, "error", "the client's own terminal error, not a clean end");
    const row = await rig.row(response);
    assert.equal(row.outcome, "upstream_cut");
    assert.equal(row.attempts, 1);
    assert.equal(fake.requests.length, 1);
    // The cut counts against the deployment.
    const list = await (await rig.admin("/admin/v1/deployments")).json();
    const view = list.data.find((d: { id: string }) => d.id === deploymentOf(route));
    assert.equal(view?.consecutive_failures, 1, JSON.stringify(view));
  });
});

interface Exhausted {
  what: string;
  fault: Fault;
  /** What the client gets. */
  status: number;
  anthropicType: string;
  openaiType: string;
  message: RegExp;
  outcome: "upstream_error" | "timeout";
  result: AttemptResult;
  /** Upstream requests made (1 + GATEHOUSE_RETRIES unless the provider's wait was too long). */
  requests: number;
  retryAfter?: string;
}

const EXHAUSTED: Exhausted[] = [
  {
    what: "HTTP 529",
    fault: status(529),
    status: 503,
    anthropicType: "overloaded_error",
    openaiType: "server_error",
    message: /HTTP 529/,
    outcome: "upstream_error",
    result: "retryable_status",
    requests: 3,
  },
  {
    what: "HTTP 503",
    fault: status(503),
    status: 503,
    anthropicType: "overloaded_error",
    openaiType: "server_error",
    message: /HTTP 503/,
    outcome: "upstream_error",
    result: "retryable_status",
    requests: 3,
  },
  {
    what: "HTTP 500",
    fault: status(500),
    status: 502,
    anthropicType: "api_error",
    openaiType: "server_error",
    message: /HTTP 500/,
    outcome: "upstream_error",
    result: "retryable_status",
    requests: 3,
  },
  {
    what: "HTTP 502",
    fault: status(502),
    status: 502,
    anthropicType: "api_error",
    openaiType: "server_error",
    message: /HTTP 502/,
    outcome: "upstream_error",
    result: "retryable_status",
    requests: 3,
  },
  {
    what: "no headers",
    fault: "hang",
    status: 504,
    anthropicType: "timeout_error",
    openaiType: "server_error",
    message: /did not answer within 300 ms/,
    outcome: "timeout",
    result: "header_timeout",
    requests: 3,
  },
  {
    what: "a reset",
    fault: "reset",
    status: 502,
    anthropicType: "api_error",
    openaiType: "server_error",
    message: /Could not reach/,
    outcome: "upstream_error",
    result: "unreachable",
    requests: 3,
  },
  {
    what: "HTTP 429 with a short retry-after",
    fault: status(429, { "retry-after-ms": "50", "retry-after": "1" }),
    status: 429,
    anthropicType: "rate_limit_error",
    openaiType: "rate_limit_error",
    message: /HTTP 429/,
    outcome: "upstream_error",
    result: "retryable_status",
    requests: 3,
    retryAfter: "1",
  },
  {
    what: "HTTP 429 with retry-after 60 (given up at once)",
    fault: status(429, { "retry-after": "60" }),
    status: 429,
    anthropicType: "rate_limit_error",
    openaiType: "rate_limit_error",
    message: /HTTP 429/,
    outcome: "upstream_error",
    result: "retryable_status",
    requests: 1,
    retryAfter: "60",
  },
];

EXHAUSTED.forEach((c, i) => {
  for (const [n, route] of [ROUTES[i % 6]!, ROUTES[(i + 3) % 6]!].entries()) {
    const stream = (i + n) % 2 === 0;
    Deno.test(`${route.name}${stream ? " stream" : ""}: ${c.what} on every attempt → ${c.status}`, async () => {
      rig.reset();
      const fake = rig.fakeOf(route);
      fake.otherwise(c.fault);
      const response = await rig.send(route.wire, route.model, { stream });
      assert.equal(response.status, c.status);
      assert.match(response.headers.get("content-type") ?? "", /json/);
      assert.equal(response.headers.get("x-gatehouse-served-model"), route.model);
      if (c.retryAfter !== undefined) {
        assert.equal(response.headers.get("retry-after"), c.retryAfter);
      }
      const error = envelopeOf(route.wire, await response.json());
      assert.equal(error.type, route.wire === "messages" ? c.anthropicType : c.openaiType);
      assert.match(error.message, c.message);
      if (c.requests > 1) assert.match(error.message, new RegExp(`${c.requests} attempts`));
      assert.match(
        error.message,
        /Provider "(openai-a|anthropic-a)"|provider "(openai-a|anthropic-a)"/,
      );
      const row = await rig.row(response);
      assert.equal(row.outcome, c.outcome);
      assert.equal(row.status, c.status);
      assert.equal(row.attempts, c.requests);
      assert.deepEqual(row.attemptLog?.map((a) => a.result), Array(c.requests).fill(c.result));
      assert.equal(fake.requests.length, c.requests);
      assert.equal(rig.warnings(row.requestId).length, c.requests);
    });
  }
});

// The decisions: "Every response the gateway builds carries x-gatehouse-served-model". A
// passthrough 4xx has it, and so does a final error after retries; the same 4xx translated
// (thrown by translate.ts, rendered by the error handler) has not.
for (const route of [ROUTES[0]!, ROUTES[1]!]) {
  Deno.test(`${route.name}: an upstream 4xx names the model that answered`, async () => {
    rig.reset();
    rig.fakeOf(route).push(status(400));
    const response = await rig.send(route.wire, route.model);
    assert.equal(response.status, 400);
    await response.body?.cancel();
    assert.equal(response.headers.get("x-gatehouse-served-model"), route.model);
  });
}

Deno.test("retry: close", async () => {
  await rig.close();
});
