/**
 * A local OTLP/HTTP trace receiver for the tracing tests: a `Deno.serve` on loopback that accepts
 * `POST /v1/traces` in the JSON encoding (what `@opentelemetry/exporter-trace-otlp-http` sends),
 * keeps every payload as received, and decodes its spans.
 * @module
 */

/** An OTLP `AnyValue` in its JSON form. */
interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
}

interface KeyValue {
  key: string;
  value: AnyValue;
}

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: KeyValue[];
  status?: { code?: number; message?: string };
}

interface TracesPayload {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: Array<{ scope?: { name?: string }; spans?: JsonSpan[] }>;
  }>;
}

/** A decoded attribute value. */
export type Value = string | number | boolean | Value[];

/** One received span, decoded. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** "" for a root span. */
  parentSpanId: string;
  name: string;
  /** `server` or `client` (else the OTLP number). */
  kind: string;
  /** Unix ms. */
  start: number;
  end: number;
  attributes: Record<string, Value>;
  /** 0 unset, 1 ok, 2 error. */
  status: number;
  resource: Record<string, Value>;
  scope: string;
}

/** A running receiver. */
export interface Receiver {
  /** `http://127.0.0.1:PORT` (the base `OTEL_EXPORTER_OTLP_ENDPOINT`). */
  url: string;
  /** Every request body as received, for scans of the whole payload. */
  readonly bodies: string[];
  /** The headers of every export request. */
  readonly headers: Headers[];
  /** Every span received so far. */
  spans(): ReceivedSpan[];
  /** Resolves once `predicate` holds for the spans received (polls; throws after `ms`). */
  until(predicate: (spans: ReceivedSpan[]) => boolean, ms?: number): Promise<ReceivedSpan[]>;
  /** Answers every later export with `status` (e.g. 503), or normally again with null. */
  failWith(status: number | null): void;
  close(): Promise<void>;
}

function decode(value: AnyValue): Value {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return (value.arrayValue?.values ?? []).map(decode);
}

function attributesOf(list: KeyValue[] | undefined): Record<string, Value> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, decode(kv.value)]));
}

const KINDS: Record<number, string> = { 1: "internal", 2: "server", 3: "client" };

function spansOf(payload: TracesPayload): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of payload.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        out.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? "",
          name: span.name,
          kind: KINDS[span.kind] ?? String(span.kind),
          start: Number(BigInt(span.startTimeUnixNano) / 1000n) / 1000,
          end: Number(BigInt(span.endTimeUnixNano) / 1000n) / 1000,
          attributes: attributesOf(span.attributes),
          status: span.status?.code ?? 0,
          resource,
          scope: scopeSpans.scope?.name ?? "",
        });
      }
    }
  }
  return out;
}

/** Starts a receiver on a free loopback port. */
export function startReceiver(): Receiver {
  const bodies: string[] = [];
  const headers: Headers[] = [];
  const received: ReceivedSpan[] = [];
  let failing: number | null = null;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/v1/traces") {
      return new Response("not found", { status: 404 });
    }
    const text = await req.text();
    if (failing !== null) return new Response("unavailable", { status: failing });
    bodies.push(text);
    headers.push(req.headers);
    received.push(...spansOf(JSON.parse(text) as TracesPayload));
    return Response.json({});
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    bodies,
    headers,
    spans: () => [...received],
    async until(predicate, ms = 5_000) {
      const deadline = Date.now() + ms;
      while (!predicate(received)) {
        if (Date.now() > deadline) {
          const names = received.map((s) => s.name).join(", ");
          throw new Error(`the spans expected did not arrive in ${ms} ms (got: ${names})`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return [...received];
    },
    failWith(status) {
      failing = status;
    },
    close: () => server.shutdown(),
  };
}
