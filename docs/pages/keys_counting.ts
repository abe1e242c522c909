/**
 * The keys page's sections on how limits are counted: the order of the checks, the `rpm`
 * sliding window, the `tpm` estimate and settlement, `max_parallel`, budgets under concurrency
 * (reservations, metered streams, the cut, what is billed), where limits are counted, and the
 * count_tokens exemption. Every number comes from the code (`governance/estimate.ts`,
 * `governance/sliding_window.ts`, `governance/governor.ts`), the worked example from the live
 * catalog.
 * @module
 */
import { LEASE_MS } from "../../governance/shared/backend.ts";
import { costOf } from "../../gateway/cost.ts";
import { emptyUsage } from "../../core/response.ts";
import {
  BYTES_PER_TOKEN,
  DEFAULT_OUTPUT_RESERVE,
  expectedUse,
  OUTPUT_RESERVE_CAP,
} from "../../governance/estimate.ts";
import { COUNT_TOKENS_ROUTE } from "../../governance/governor.ts";
import { usd } from "../../governance/refusals.ts";
import { WINDOW_MS } from "../../governance/sliding_window.ts";
import { html, type Part } from "../html.ts";
import type { Site } from "../site.ts";
import { weekStartDay } from "./keys_manage.ts";

/** A number as the page writes it: `4,096`. */
export const n = (value: number): string => value.toLocaleString("en-US");

const SECONDS = WINDOW_MS / 1000;

/** The example request of the budget section: a coding agent's call. */
export const EXAMPLE_BODY_BYTES = 40_000;
/** What the example request asks for as output. */
export const EXAMPLE_MAX_TOKENS = 32_000;

/** "How limits are counted": order, rpm, tpm, max_parallel. */
export function counting(): Part {
  return html`
    <h2 id="counting">How limits are counted</h2>
    <p>After the key is checked and the model resolved, admission checks, in this order:
    <code>models</code> (<code>403</code>), then budget, <code>max_parallel</code>,
    <code>rpm</code>, <code>tpm</code> (<code>429</code>) — each for the key, then for its team. The
    first that refuses is reported. A spent budget is named before a rate limit, so a client is not
    told to retry in seconds when it must wait for the period to end. A refused request counts in no
    window; it writes one ledger row, outcome <code>rejected</code>.</p>
    <p><strong><code>rpm</code> is an exact sliding window</strong> over admission times: a request
    admitted at <var>t</var> counts until <var>t</var> + ${SECONDS} s. So no ${SECONDS}-second
    interval, wherever it starts, holds more than <code>rpm</code> admissions. A fixed per-minute
    counter lets twice the limit through around a minute boundary (<code>rpm</code> requests at
    12:00:59.9 and <code>rpm</code> more at 12:01:00.0); here there is no such double burst: the next
    request waits until the oldest of the last <code>rpm</code> admissions is ${SECONDS} s old, and
    <code>retry-after</code> says when (whole seconds, rounded up).</p>
    <p><strong><code>tpm</code> is estimated, then settled.</strong> At admission a request enters
    the window with its input estimate: ceil(body bytes / ${BYTES_PER_TOKEN}), the request body's
    size with its JSON framing, which overestimates prose rather than under. Output is not guessed
    for <code>tpm</code>. When the request ends, its entry is replaced by the real tokens the ledger
    records: input (cached reads and cache writes included) + output (reasoning included). An entry
    keeps its admission time, so it leaves the window ${SECONDS} s after admission even when the
    request ran longer. <code>retry-after</code> is when enough entries leave for the estimate to
    fit, if nothing else changes; an estimate above <code>tpm</code> by itself can never fit and is
    refused without <code>retry-after</code>. Image generation does not enter the
    <code>tpm</code> window.</p>
    <p><strong><code>max_parallel</code></strong> counts requests from admission until their ledger
    row is settled: a stream holds its place until it ends or its client leaves. Its refusal carries
    <code>retry-after: 1</code>.</p>
  `;
}

/** The worked reservation example, from the catalog's flagship model (nothing when it is not
 * in the catalog or has no output price). */
function example(site: Site): Part {
  const id = site.catalog.setupDefaults.flagship;
  const model = site.catalog.resolve(id);
  if (model === null || !model.pricing.output) return "";
  const body = { max_tokens: EXAMPLE_MAX_TOKENS, stream: true };
  const expected = expectedUse(model, "/v1/messages", body, EXAMPLE_BODY_BYTES);
  const asked = Math.min(EXAMPLE_MAX_TOKENS, model.maxOutputTokens ?? Infinity);
  const whole = costOf(model.pricing, {
    ...emptyUsage(),
    inputTokens: expected.inputTokens,
    outputTokens: asked,
  });
  return html`
    <p class="note" data-example="reservation">Example: a coding agent sends
    <code>${id}</code> a ${n(EXAMPLE_BODY_BYTES)}-byte streamed request asking
    <code>max_tokens</code> ${n(EXAMPLE_MAX_TOKENS)}. Its reservation is ${n(
      expected.inputTokens,
    )} input tokens +
    ${n(expected.outputTokens)} output tokens at the catalog's prices:
    <strong>${usd(expected.reservationUsd)}</strong>, where holding everything it asked for would
    hold ${usd(whole)}.</p>
  `;
}

/** "Budgets": the hard cap under concurrency. */
export function budgets(site: Site): Part {
  return html`
    <h2 id="budgets">Budgets: a hard cap under concurrency</h2>
    <p>A budget is US dollars per period at the catalog's prices — the same figure as the ledger's
    <code>cost</code>. Periods follow UTC calendar boundaries: <code>day</code> from 00:00 UTC,
    <code>week</code> from ${weekStartDay()} 00:00 UTC, <code>month</code> from the 1st at 00:00
    UTC; <code>total</code> never resets. The period's settled spend is read from the ledger once,
    by the first request that needs it (requests arriving meanwhile wait for the same read); after
    that, admission takes no database call.</p>
    <p>Every request in flight <strong>holds</strong> part of the budget: the larger of its
    reservation and what it has actually spent so far. A request is admitted only when settled spend
    + every hold + its own reservation fit in the budget, so fifty requests arriving at once under a
    budget with room for ten reservations admit exactly ten. The <strong>reservation</strong> is the
    input estimate (ceil(body bytes / ${BYTES_PER_TOKEN})) at the input price plus an output
    estimate at the output price. For a <strong>stream</strong> it is bounded: the smallest of the
    output the request asks for (<code>max_tokens</code>, else <code>max_completion_tokens</code>,
    else <code>max_output_tokens</code>; ${n(DEFAULT_OUTPUT_RESERVE)} tokens when it asks none),
    the model's maximum output, and ${n(OUTPUT_RESERVE_CAP)} tokens. A <strong>whole
    (non-streamed) answer</strong> cannot be cut on its way, so it reserves all the output it may
    produce: what it asks for, else the model's maximum output. Image generation reserves the
    per-image price × <code>n</code> (default 1) plus the prompt.</p>
    ${example(site)}
    <p><strong>Why the cap does not starve agents.</strong> Coding agents ask 32k–128k output tokens
    on every call and mostly get a few hundred. Reserving all of it would let one long stream block
    every short request under the same budget for as long as it runs. The
    ${n(OUTPUT_RESERVE_CAP)}-token cap bounds what a reservation holds; output beyond it is metered
    as it streams, so the budget stays a hard cap.</p>
    <p><strong>Streams are metered and cut.</strong> While a budget applies, the gateway counts each
    stream's generated text as it is delivered (text, reasoning and tool-call arguments; o200k
    tokenizer) and, after each chunk the provider sends, adds up settled spend + the other requests'
    holds + this request's spend so far, delta by delta. When that reaches the budget, the stream
    ends: the delta that reached it is the last thing the client gets (the rest of that provider
    chunk is dropped), then its protocol's terminal error — Messages
    <code>event: error</code> (<code>rate_limit_error</code>), Responses <code>response.failed</code>
    (<code>insufficient_quota</code>), chat a last <code>data: {"error": …}</code> chunk
    (<code>insufficient_quota</code>) with no <code>[DONE]</code>. The gateway stops reading the
    provider's stream, and the ledger row's outcome is <code>budget_cut</code> (status 200). A
    request that has spent nothing is never cut.</p>
    <p><strong>How far over it can go.</strong> Each stream in flight can pass the budget by at most
    the one delta with which it reached it, usually a few tokens. A whole answer reserved all the
    output it can produce, so it cannot pass it by its output (a refusal for its reservation says so
    and how to hold less: stream, or ask a lower <code>max_tokens</code>). Input is counted at its estimate until the provider reports the real figure, so
    input the estimate missed (it can undercount some non-English text) can also end a request a
    little above the budget.</p>
    <p><strong>What is billed.</strong> The provider's reported usage. Under a budget, a stream that
    did not finish — cut for the budget, broken off, or left by its client (the provider request is
    then closed at once; outcome <code>client_disconnect</code>) — is billed at least what was
    delivered: the counted output tokens, and the provider's input figure or else the admission's
    estimate. A budget refusal's <code>retry-after</code> is the time to the period's end (none for
    <code>total</code>), or 1 when only the holds of requests in flight are in the way.</p>
  `;
}

/** Where limits are counted (one process, workers, instances, Redis down) and the count_tokens
 * exemption. */
export function whereCounted(): Part {
  return html`
    <h2 id="where-counted">Where limits are counted</h2>
    <ul>
      <li><strong>One process</strong> (<code>deno task start</code>, the default): in its memory,
      exactly. A restart starts the windows empty and reads the budgets again from the ledger.</li>
      <li><strong>Workers</strong> (<code>--workers N</code>): the first thread keeps the counts
      for all of them, so a key gets its <code>rpm</code>, <code>tpm</code>,
      <code>max_parallel</code> and budget once, whichever worker serves it.</li>
      <li><strong>Several instances</strong> (<code>DATABASE_URL</code> on one Postgres,
      <code>REDIS_URL</code> on one Redis): in Redis, one truth for all of them: each admission is
      one atomic script that checks every limit of the key and its team and takes the request's
      holds. Requests in flight and budget holds are leases an instance renews while it runs, so
      the holds of an instance that dies expire within ${n(LEASE_MS / 1000)} seconds. A stream's
      budget watch counts everyone else's spend as Redis last said it; across instances a budget
      can be passed by one streamed delta plus what one round trip to Redis lets through, per
      stream in flight.</li>
      <li><strong>Several instances without Redis</strong>: refused. The second instance on one
      Postgres database does not start while any key or team has a rate, parallel or budget
      limit (each instance would count it alone: <var>N</var> instances, <var>N</var> ×
      <code>rpm</code>).</li>
      <li><strong>Redis unreachable</strong>: with <code>GATEHOUSE_LIMITS_ON_REDIS_DOWN=local</code>
      (the default) each instance counts limits in its own memory until Redis is back, says so in
      its log and in <code>/readyz</code>, and then rejoins by itself, reading the budgets spent
      meanwhile from the ledger; so during an outage a key can get up to its limit per instance.
      With <code>reject</code>, requests under a limit are refused with <code>503</code>
      (<code>limits_unavailable</code>) until Redis is back.</li>
    </ul>
    <p>Key changes, revocations and rotations reach every instance within a second: at once through
    Redis when it is set, and through the database's own key generation otherwise.</p>
    <h2 id="count-tokens"><code>count_tokens</code> is exempt</h2>
    <p><code>POST ${COUNT_TOKENS_ROUTE}</code> is checked against <code>models</code> only: it counts
    in no <code>rpm</code>, <code>tpm</code>, <code>max_parallel</code> or budget, costs nothing, and
    carries no rate-limit headers (Anthropic rates it apart, and agents call it freely). It still
    writes its ledger row.</p>
  `;
}
