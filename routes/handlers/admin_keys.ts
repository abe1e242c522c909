/**
 * The admin key routes: list, create, get, change, revoke and rotate keys (`/admin/v1/keys`).
 * Only a creation or a rotation answers with the secret (`key`), once.
 * @module
 */
import type { RouteHandler } from "@hono/zod-openapi";
import type { Store } from "../../store/store.ts";
import type { adminRoutes } from "../admin_routes.ts";
import type { AppEnv } from "../env.ts";
import { createKey, findKey, revokeKey, rotateKey, updateKey } from "./admin_ops.ts";
import { keyViewOf } from "./admin_views.ts";

type Routes = typeof adminRoutes;
type Handler<K extends keyof Routes> = RouteHandler<Routes[K]["route"], AppEnv>;

/** `GET /admin/v1/keys`. */
export function listKeysHandler(store: Store): Handler<"adminListKeys"> {
  return async function listKeys(c) {
    const now = Date.now();
    const keys = await store.listKeys();
    const data = await Promise.all(keys.map((record) => keyViewOf(store, record, now)));
    return c.json({ object: "list" as const, data }, 200);
  };
}

/** `POST /admin/v1/keys`. */
export function createKeyHandler(store: Store): Handler<"adminCreateKey"> {
  return async function createKeyRoute(c) {
    const now = Date.now();
    const { record, key } = await createKey(store, c.req.valid("json"), now);
    return c.json({ ...(await keyViewOf(store, record, now)), key }, 200);
  };
}

/** `GET /admin/v1/keys/{id}`. */
export function getKeyHandler(store: Store): Handler<"adminGetKey"> {
  return async function getKey(c) {
    const record = await findKey(store, c.req.valid("param").id);
    return c.json(await keyViewOf(store, record, Date.now()), 200);
  };
}

/** `PATCH /admin/v1/keys/{id}`. */
export function updateKeyHandler(store: Store): Handler<"adminUpdateKey"> {
  return async function updateKeyRoute(c) {
    const now = Date.now();
    const record = await updateKey(store, c.req.valid("param").id, c.req.valid("json"), now);
    return c.json(await keyViewOf(store, record, now), 200);
  };
}

/** `DELETE /admin/v1/keys/{id}`: revokes the key. */
export function revokeKeyHandler(store: Store): Handler<"adminRevokeKey"> {
  return async function revokeKeyRoute(c) {
    const record = await revokeKey(store, c.req.valid("param").id);
    return c.json(await keyViewOf(store, record, Date.now()), 200);
  };
}

/** `POST /admin/v1/keys/{id}/rotate`. */
export function rotateKeyHandler(store: Store): Handler<"adminRotateKey"> {
  return async function rotateKeyRoute(c) {
    const grace = c.req.valid("json").grace_seconds;
    const { record, key } = await rotateKey(store, c.req.valid("param").id, grace);
    return c.json({ ...(await keyViewOf(store, record, Date.now())), key }, 200);
  };
}
