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
  };
}
