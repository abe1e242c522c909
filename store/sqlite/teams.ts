/**
 * The `teams` table: a policy shared by the keys whose `api_keys.team` names the team.
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { Policy } from "../../governance/policy.ts";
import type { TeamRecord } from "../store.ts";
import { num, type Row, SQLITE_CELLS } from "./rows.ts";
import { writePolicy } from "../policy_json.ts";
import { TEAM_COLUMNS as COLUMNS, teamRecordFrom } from "../record_rows.ts";

export { TEAM_ID_PATTERN } from "../key_rules.ts";

function toRecord(row: Row): TeamRecord {
  return teamRecordFrom(row, SQLITE_CELLS);
}

/** Prepared statements over `teams`, created once per connection. */
export class TeamTable {
  readonly #insert: StatementSync;
  readonly #list: StatementSync;
  readonly #byId: StatementSync;
  readonly #update: StatementSync;
  readonly #delete: StatementSync;
  readonly #liveMembers: StatementSync;

  constructor(db: DatabaseSync) {
    this.#insert = db.prepare(
      `INSERT INTO teams (${COLUMNS}) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
    );
    this.#list = db.prepare(`SELECT ${COLUMNS} FROM teams ORDER BY id`);
    this.#byId = db.prepare(`SELECT ${COLUMNS} FROM teams WHERE id = ?`);
    this.#update = db.prepare("UPDATE teams SET policy = ?, updated_at = ? WHERE id = ?");
    this.#delete = db.prepare("DELETE FROM teams WHERE id = ?");
    this.#liveMembers = db.prepare(
      "SELECT COUNT(*) AS n FROM api_keys WHERE team = ? AND revoked_at IS NULL",
    );
  }

  /** Inserts a team; false when the id is taken. */
  insert(record: TeamRecord): boolean {
    const { changes } = this.#insert.run(
      record.id,
      writePolicy(record.policy),
      record.createdAt,
      record.updatedAt,
    );
    return Number(changes) === 1;
  }

  /** Every team, by id. */
  list(): TeamRecord[] {
    return this.#list.all().map(toRecord);
  }

  /** The team `id`, or null. */
  find(id: string): TeamRecord | null {
    const row = this.#byId.get(id);
    return row === undefined ? null : toRecord(row);
  }

  /** Replaces a team's policy; false when no such team. */
  update(id: string, policy: Policy, now: number): boolean {
    return Number(this.#update.run(writePolicy(policy), now, id).changes) === 1;
  }

  /** Deletes a team; false when no such team. Does not look at its keys. */
  delete(id: string): boolean {
    return Number(this.#delete.run(id).changes) === 1;
  }

  /** How many keys that are not revoked belong to team `id`. */
  liveMembers(id: string): number {
    const row = this.#liveMembers.get(id);
    return row === undefined ? 0 : num(row, "n");
  }
}
