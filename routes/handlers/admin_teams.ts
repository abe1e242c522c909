/**
 * The admin team routes: list, create, get, change and delete teams (`/admin/v1/teams`).
 * @module
 */
import type { RouteHandler } from "@hono/zod-openapi";
import type { Store } from "../../store/store.ts";
import type { adminRoutes } from "../admin_routes.ts";
import type { AppEnv } from "../env.ts";
import { createTeam, deleteTeam, findTeam, liveKeysByTeam, updateTeam } from "./admin_ops.ts";
import { teamViewOf } from "./admin_views.ts";

type Routes = typeof adminRoutes;
type Handler<K extends keyof Routes> = RouteHandler<Routes[K]["route"], AppEnv>;

/** `GET /admin/v1/teams`. */
export function listTeamsHandler(store: Store): Handler<"adminListTeams"> {
  return async function listTeams(c) {
    const now = Date.now();
    const [teams, counts] = await Promise.all([store.listTeams(), liveKeysByTeam(store)]);
    const data = await Promise.all(
      teams.map((team) => teamViewOf(store, team, counts.get(team.id) ?? 0, now)),
    );
    return c.json({ object: "list" as const, data }, 200);
  };
}

/** `POST /admin/v1/teams`. */
export function createTeamHandler(store: Store): Handler<"adminCreateTeam"> {
  return async function createTeamRoute(c) {
    const now = Date.now();
    const team = await createTeam(store, c.req.valid("json"), now);
    return c.json(await teamViewOf(store, team, 0, now), 200);
  };
}

/** `GET /admin/v1/teams/{id}`. */
export function getTeamHandler(store: Store): Handler<"adminGetTeam"> {
  return async function getTeam(c) {
    const team = await findTeam(store, c.req.valid("param").id);
    const keys = (await liveKeysByTeam(store)).get(team.id) ?? 0;
    return c.json(await teamViewOf(store, team, keys, Date.now()), 200);
  };
}

/** `PATCH /admin/v1/teams/{id}`. */
export function updateTeamHandler(store: Store): Handler<"adminUpdateTeam"> {
  return async function updateTeamRoute(c) {
    const now = Date.now();
    const team = await updateTeam(store, c.req.valid("param").id, c.req.valid("json"), now);
    const keys = (await liveKeysByTeam(store)).get(team.id) ?? 0;
    return c.json(await teamViewOf(store, team, keys, now), 200);
  };
}

/** `DELETE /admin/v1/teams/{id}`: only a team no live key belongs to. */
export function deleteTeamHandler(store: Store): Handler<"adminDeleteTeam"> {
  return async function deleteTeamRoute(c) {
    const id = c.req.valid("param").id;
    await deleteTeam(store, id);
    return c.json({ object: "team.deleted" as const, id, deleted: true as const }, 200);
  };
}
