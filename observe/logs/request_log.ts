/**
 * The request log: one line per model request, written when it settles, from its ledger row —
 * who (key id and name, team), what (route, requested and served model, provider), how it
 * ended (status, outcome, the refusal's code), how long (latency, time to first byte, gatehouse's
 * own overhead), tokens, cost, attempts and the client's user agent. JSON in json mode; a compact
 * line in text mode. Request lines are info lines: `GATEHOUSE_QUIET=1` turns the request log off
 * (the observer is not even started). Never a prompt, an output or a secret: the ledger row has
 * none, and the user agent (the one client-chosen text) is cut and stripped.
 * @module
 */
import { type ConsoleLogger, isConsoleLogger } from "../../gateway/log.ts";
import type { Logger } from "../../gateway/exchange.ts";
import type { Observer, RequestObservation, SettledRequest } from "../observer.ts";
import { clientText, textValue } from "./format.ts";

/** The request line's fields, in the order they are written. */
export type RequestLine = {
  requestId: string;
  keyId: string;
  keyName: string;
  team: string | null;
  route: string;
  stream: boolean;
  model: string;
  servedModel: string;
  provider: string;
  status: number;
  outcome: string;
  /** A refusal's error code (`rate_limit_exceeded`, …), else null. */
  refusal: string | null;
  /** The limit that refused it (`rpm`, `tpm`, `max_parallel`, `budget`), else null. */
  limit: string | null;
  latencyMs: number;
  ttfbMs: number | null;
  /** Gatehouse's own time (no upstream wait), null without an upstream call. */
  overheadMs: number | null;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  costUsd: number;
  attempts: number;
  userAgent: string | null;
};

const round2 = (ms: number | null) => ms === null ? null : Math.round(ms * 100) / 100;

/** The line's fields for a settled request. */
export function requestLine(settled: SettledRequest): RequestLine {
  const { record, key } = settled;
  return {
    requestId: record.requestId,
    keyId: record.keyId,
    keyName: key.name,
    team: key.team,
    route: record.route,
    stream: record.stream,
    model: record.model,
    servedModel: record.servedModel,
    provider: record.upstream,
    status: record.status,
    outcome: record.outcome,
    refusal: settled.refusal,
    limit: settled.limit,
    latencyMs: record.latencyMs,
    ttfbMs: record.firstByteMs,
    overheadMs: round2(settled.overheadMs),
    inputTokens: record.inputTokens,
    outputTokens: record.outputTokens,
    cachedTokens: record.cachedTokens,
    reasoningTokens: record.reasoningTokens,
    costUsd: record.cost,
    attempts: record.attempts,
    userAgent: clientText(settled.userAgent),
  };
}

/** The text-mode rendering (after `time INFO `): `request req_… /v1/chat/completions 200 ok
 * key=key_…/alice model=gpt-5 served=gpt-5 provider=openai latency=812ms ttfb=120ms in=12
 * out=40 cached=0 reasoning=0 cost=$0.000412 attempts=1 ua="claude-cli/2.0.1"`. */
export function requestText(line: RequestLine): string {
  const ms = (value: number | null) => value === null ? "-" : `${value}ms`;
  // A refusal has no served model or provider: "-" reads better than "".
  const word = (value: string | null) => value === null || value === "" ? "-" : textValue(value);
  let text = `request ${textValue(line.requestId)} ${textValue(line.route)} ${line.status} ` +
    `${line.outcome} key=${textValue(`${line.keyId}/${line.keyName}`)}`;
  if (line.team !== null) text += ` team=${textValue(line.team)}`;
  if (line.refusal !== null) text += ` refusal=${textValue(line.refusal)}`;
  if (line.limit !== null) text += ` limit=${textValue(line.limit)}`;
  text += ` model=${word(line.model)} served=${word(line.servedModel)}` +
    ` provider=${word(line.provider)} latency=${ms(line.latencyMs)}` +
    ` ttfb=${ms(line.ttfbMs)}`;
  if (line.overheadMs !== null) text += ` overhead=${ms(line.overheadMs)}`;
  return `${text} in=${line.inputTokens} out=${line.outputTokens}` +
    ` cached=${line.cachedTokens} reasoning=${line.reasoningTokens}` +
    ` cost=$${formatCost(line.costUsd)} attempts=${line.attempts}` +
    ` ua=${word(line.userAgent)}`;
}

/** A cost in dollars without float noise or exponent notation. */
function formatCost(cost: number): string {
  if (cost === 0) return "0";
  return cost.toFixed(8).replace(/0+$/, "").replace(/\.$/, "");
}

/** The request log writing to `log`: an event line on a console logger; on another logger
 * (a test's memory logger) an info line `request` with the fields. */
export function requestLogObserver(log: ConsoleLogger | Logger): Observer {
  const write = isConsoleLogger(log)
    // A JSON line is the fields: the text rendering is built only for text lines.
    ? log.format === "text"
      ? (line: RequestLine) => log.event("info", "request", "request", line, requestText(line))
      : (line: RequestLine) => log.event("info", "request", "request", line)
    : (line: RequestLine) => log.info("request", line);
  // One observation for every request: the line needs nothing from before the settle.
  const observation: RequestObservation = {
    attemptStarted: () => undefined,
    attemptEnded: () => {},
    settled: (settled) => write(requestLine(settled)),
  };
  return { begin: () => observation };
}
