import assert from "node:assert/strict";
import { describePostgresUrl, isPostgresUrl } from "./database_url.ts";

Deno.test("isPostgresUrl: postgres:// and postgresql:// only", () => {
  assert.equal(isPostgresUrl("postgres://h/db"), true);
  assert.equal(isPostgresUrl(" POSTGRESQL://h/db"), true);
  assert.equal(isPostgresUrl("./data/gatehouse.db"), false);
  assert.equal(isPostgresUrl(":memory:"), false);
});

Deno.test("describePostgresUrl: host, port and database; never the user or password", () => {
  const described = describePostgresUrl(
    "postgres://admin:s3cret@db.internal:6432/gh?sslmode=require&password=x",
  );
  assert.equal(described, "postgres://db.internal:6432/gh");
  assert.equal(
    describePostgresUrl("postgresql://u@127.0.0.1/postgres"),
    "postgres://127.0.0.1:5432/postgres",
  );
  assert.ok(!describePostgresUrl("postgres://u:pw@[::1/x").includes("pw"));
});
