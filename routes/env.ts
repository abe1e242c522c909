/**
 * The Hono environment shared by the app's middleware and handlers.
 * @module
 */
import type { KeyRecord } from "../store/store.ts";
import type { Envelope, RouteSpec } from "./table.ts";

/** Per-request variables. */
export interface AppEnv {
  Variables: {
    envelope: Envelope;
    spec: RouteSpec;
    key: KeyRecord;
    /** `x-request-id`: the client's own when sane, else gatehouse's. */
    requestId: string;
    /** `performance.now()` when the request reached the app (observers time it from here). */
    receivedAt: number;
    /** The parsed JSON body, once `routes/body.ts` has read it (unset when it refused it). */
    body: Record<string, unknown>;
    /** The JSON body's length in characters (the admission's input estimate reads it). */
    bodyBytes: number;
    /** The JSON body as the client sent it (a same-wire upstream gets it with its model
     * replaced: `gateway/forward_body.ts`). */
    bodyText: string;
    /** The body's bytes, when `routes/body.ts` kept them for the upstream. */
    bodyUtf8: Uint8Array<ArrayBuffer>;
    /** Set when a model handler has handed the request to the gateway: from then on its
     * lifecycle records the ledger row and logs its failures (`routes/handover.ts`). */
    handedOver: boolean;
  };
}
