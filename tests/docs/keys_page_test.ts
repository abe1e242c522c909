/**
 * The "Keys, limits and budgets" page: served and in the navigation, linked with the errors and
 * reference pages, its numbers the code's own constants, and its refusal table, headers and
 * usage fields what a live gateway answers.
 */
import assert from "node:assert/strict";
import { POLICY_FIELDS as FIELDS } from "../../governance/policy.ts";
import { BUDGET_PERIODS, periodStart } from "../../governance/policy.ts";
import {
  BYTES_PER_TOKEN,
  DEFAULT_OUTPUT_RESERVE,
  expectedUse,
  OUTPUT_RESERVE_CAP,
} from "../../governance/estimate.ts";
import { COUNT_TOKENS_ROUTE } from "../../governance/governor.ts";
import { LEASE_MS } from "../../governance/shared/backend.ts";
import { usd } from "../../governance/refusals.ts";
import { WINDOW_MS } from "../../governance/sliding_window.ts";
import { POLICY_FLAGS } from "../../cli/policy_flags.ts";
import { DEFAULT_GRACE_SECONDS } from "../../routes/admin_schemas.ts";
import { adminRoutes } from "../../routes/admin_routes.ts";
import { KEYS_CHECK_INTERVAL_MS } from "../../store/verified_keys.ts";
import { createDocsApp } from "../../docs/mod.ts";
import { NAV } from "../../docs/layout.ts";
import { type Harness, makeHarness } from "../harness.ts";
import { squash } from "./docs_env.ts";

const n = (value: number) => value.toLocaleString("en-US");

/** A live gateway and the docs host over its document. */
async function setup() {
  const h = await makeHarness();
  const document = await (await h.request("/openapi.json")).json();
  const app = createDocsApp({
    document: () => document,
    catalog: h.deps.catalog,
    publicBaseUrl: "https://api.gatehouse.example",
    docsUrl: "https://docs.gatehouse.example",
  });
  const page = async (path: string) => squash(await (await app.request(path)).text());
  return { h, page };
}

/** Creates a key through the admin API; its secret and id. */
async function createKey(h: Harness, body: Record<string, unknown>) {
  const response = await h.request("/admin/v1/keys", {
    method: "POST",
    headers: { authorization: `Bearer ${h.adminKey}` },
    json: { name: "test", ...body },
  });
  assert.equal(response.status, 200, await response.clone().text());
  const { key, id } = await response.json();
  return { key: key as string, id: id as string };
}

const chat = (model = "gpt-5") => ({ model, messages: [{ role: "user", content: "hi" }] });
const messages = (model = "gpt-5") => ({ ...chat(model), max_tokens: 16 });

/** One call, as the refusal table describes it. */
async function call(h: Harness, key: string, route: string, body?: unknown) {
  const anthropic = route.startsWith("/v1/messages");
  const response = await h.request(route, {
    method: body === undefined ? "GET" : "POST",
    headers: anthropic
      ? { "x-api-key": key, "anthropic-version": "2023-06-01" }
      : { authorization: `Bearer ${key}` },
    json: body,
  });
  const json = await response.json();
  return {
    status: response.status,
    type: anthropic ? json.error?.type : json.error?.type,
    code: anthropic ? null : json.error?.code,
    anthropic,
    retryAfter: response.headers.get("retry-after"),
    shouldRetry: response.headers.get("x-should-retry"),
    headers: [...response.headers.keys()].filter((name) => name.includes("ratelimit")),
  };
}

Deno.test("the keys page is served, in the navigation, and linked with errors and reference", async () => {
  const { h, page } = await setup();
  try {
    const item = NAV.flatMap((g) => g.items).find((i) => i.path === "/keys");
    assert.equal(item?.label, "Keys, limits and budgets");
    const keys = await page("/keys");
    assert.ok(keys.includes("<h1>Keys, limits and budgets</h1>"));
    assert.ok(keys.includes('href="/keys" aria-current="page"'));
    assert.ok(keys.includes('href="/errors"'));
    for (const path of ["/", "/errors", "/reference", "/catalog"]) {
      assert.ok((await page(path)).includes('<a href="/keys'), `${path} links to /keys`);
    }
    const errors = await page("/errors");
    assert.ok(errors.includes('href="/keys#refusals"'));
    for (const word of ["permission_error", "rate_limit_exceeded", "insufficient_quota"]) {
      assert.ok(errors.includes(`<code>${word}</code>`), word);
    }
    for (const code of ["expired_api_key", "invalid_api_key", "admin_key_required"]) {
      assert.ok(errors.includes(`<code>${code}</code>`), code);
    }
    assert.match(errors, /<code>budget_cut<\/code>/);
  } finally {
    await h.close();
  }
});

Deno.test("the keys page quotes the code's constants", async () => {
  const { h, page } = await setup();
  try {
    const text = await page("/keys");
    assert.ok(text.includes(`ceil(body bytes / ${BYTES_PER_TOKEN})`));
    assert.ok(text.includes(`${n(DEFAULT_OUTPUT_RESERVE)} tokens when it asks none`));
    assert.ok(text.includes(`model's maximum output, and ${n(OUTPUT_RESERVE_CAP)} tokens`));
    assert.ok(text.includes(`The ${n(OUTPUT_RESERVE_CAP)}-token cap`));
    assert.ok(text.includes(`default ${DEFAULT_GRACE_SECONDS / 3600} h`));
    assert.ok(text.includes(`<code>grace_seconds</code> ${DEFAULT_GRACE_SECONDS}`));
    assert.ok(text.includes(`at most every ${KEYS_CHECK_INTERVAL_MS} ms`));
    assert.ok(text.includes(`counts until <var>t</var> + ${WINDOW_MS / 1000} s`));
    assert.ok(text.includes(`expire within ${LEASE_MS / 1000} seconds`));
    assert.ok(text.includes(`POST ${COUNT_TOKENS_ROUTE}</code> is checked against`));
    // The week starts where periodStart puts it.
    const weekday = new Date(periodStart("week", Date.UTC(2026, 4, 14))).toLocaleDateString(
      "en-US",
      { weekday: "long", timeZone: "UTC" },
    );
    assert.ok(text.includes(`<code>week</code> from ${weekday} 00:00 UTC`), weekday);
    for (const period of BUDGET_PERIODS) assert.ok(text.includes(`<code>${period}</code>:`));
    for (const field of FIELDS) {
      assert.match(
        text,
        new RegExp(
          `<tr data-field="${field}"><td><code>${field}</code></td><td><code>--${
            POLICY_FLAGS[field]
          }</code>`,
        ),
      );
    }
    // The worked example is the estimate of the catalog's flagship.
    const flagship = h.deps.catalog.resolve(h.deps.catalog.setupDefaults.flagship)!;
    const body = { max_tokens: 32_000, stream: true };
    const expected = expectedUse(flagship, "/v1/messages", body, 40_000);
    assert.equal(expected.outputTokens, OUTPUT_RESERVE_CAP);
    const example = /<p class="note" data-example="reservation">(.*?)<\/p>/.exec(text)?.[1] ?? "";
    assert.ok(example.includes(`${n(expected.inputTokens)} input tokens`), example);
    assert.ok(example.includes(`${n(expected.outputTokens)} output tokens`), example);
    assert.ok(example.includes(`<strong>${usd(expected.reservationUsd)}</strong>`), example);
    // Every admin route, with its method.
    for (const { route } of Object.values(adminRoutes)) {
      assert.ok(text.includes(`<code>${route.method.toUpperCase()} ${route.path}</code>`));
    }
  } finally {
    await h.close();
  }
});

Deno.test("the refusal table is what a live gateway answers", async () => {
  const { h, page } = await setup();
  const open: Response[] = [];
  try {
    const text = await page("/keys");
    const row = (id: string) => {
      const match = new RegExp(`<tr data-refusal="${id}">(.*?)</tr>`).exec(text);
      assert.ok(match, id);
      return match[1]!;
    };
    const check = (id: string, seen: Awaited<ReturnType<typeof call>>) => {
      const cells = [...row(id).matchAll(/<td>(.*?)<\/td>/g)].map((m) => m[1]!);
      assert.ok(cells[1]!.startsWith(`<code>${seen.status}</code>`), `${id}: ${cells[1]}`);
      if (seen.anthropic) assert.ok(cells[3]!.includes(`<code>${seen.type}</code>`), id);
      else assert.ok(cells[2]!.includes(`<code>${seen.type}</code> / <code>${seen.code}</code>`));
      assert.equal(cells[4]!.startsWith("none"), seen.retryAfter === null, `${id}: ${cells[4]}`);
      const should = /x-should-retry: (\w+)/.exec(cells[4]!)?.[1] ?? null;
      assert.equal(should, seen.shouldRetry, `${id}: x-should-retry`);
    };
    const only = await createKey(h, { models: ["gpt-5*"] });
    check(
      "model_not_allowed",
      await call(h, only.key, "/v1/chat/completions", chat("claude-sonnet-5")),
    );
    check(
      "model_not_allowed",
      await call(h, only.key, "/v1/messages", messages("claude-sonnet-5")),
    );
    const rpm = await createKey(h, { rpm: 1 });
    assert.equal((await call(h, rpm.key, "/v1/chat/completions", chat())).status, 200);
    check("rpm", await call(h, rpm.key, "/v1/chat/completions", chat()));
    check("rpm", await call(h, rpm.key, "/v1/messages", messages()));
    const tpm = await createKey(h, { tpm: 40 });
    assert.equal((await call(h, tpm.key, "/v1/chat/completions", chat())).status, 200);
    check("tpm", await call(h, tpm.key, "/v1/chat/completions", chat()));
    const tiny = await createKey(h, { tpm: 5 });
    check("tpm_never", await call(h, tiny.key, "/v1/chat/completions", chat()));
    // A stream left unread stays in flight: it holds max_parallel and its budget reservation.
    const parallel = await createKey(h, { max_parallel: 1 });
    const stream = { ...chat(), stream: true };
    open.push(
      await h.request("/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${parallel.key}` },
        json: stream,
      }),
    );
    check("max_parallel", await call(h, parallel.key, "/v1/chat/completions", chat()));
    const model = h.deps.catalog.resolve("gpt-5")!;
    const body = JSON.stringify(stream);
    const reserve = expectedUse(model, "/v1/chat/completions", stream, body.length).reservationUsd;
    const held = await createKey(h, { budget_usd: reserve * 1.5, budget_period: "day" });
    open.push(
      await h.request("/v1/chat/completions", {
        method: "POST",
        headers: { authorization: `Bearer ${held.key}`, "content-type": "application/json" },
        body,
      }),
    );
    const heldCall = await call(h, held.key, "/v1/chat/completions", stream);
    check("budget_held", heldCall);
    assert.equal(heldCall.retryAfter, "1");
    const broke = await createKey(h, { budget_usd: 0.000001, budget_period: "week" });
    check("budget", await call(h, broke.key, "/v1/chat/completions", chat()));
    check("budget", await call(h, broke.key, "/v1/messages", messages()));
    const expired = await createKey(h, { expires_at: 1 });
    check("expired", await call(h, expired.key, "/v1/models"));
    check("expired", await call(h, expired.key, "/v1/messages", messages()));
    const revoked = await createKey(h, {});
    const admin = { authorization: `Bearer ${h.adminKey}` };
    await h.request(`/admin/v1/keys/${revoked.id}`, { method: "DELETE", headers: admin });
    check("revoked", await call(h, revoked.key, "/v1/models"));
    const rotated = await createKey(h, {});
    await h.request(`/admin/v1/keys/${rotated.id}/rotate`, {
      method: "POST",
      headers: admin,
      json: { grace_seconds: 0 },
    });
    check("rotated", await call(h, rotated.key, "/v1/models"));
    check("admin_key_required", await call(h, h.key, "/admin/v1/keys"));
  } finally {
    for (const response of open) await response.body?.cancel();
    await h.close();
  }
});

Deno.test("the page's headers and usage fields are what a live gateway sends", async () => {
  const { h, page } = await setup();
  try {
    const text = await page("/keys");
    const limited = await createKey(h, { rpm: 100, tpm: 100_000 });
    for (const route of ["/v1/chat/completions", "/v1/messages"]) {
      const body = route === "/v1/messages" ? messages() : chat();
      const seen = await call(h, limited.key, route, body);
      assert.equal(seen.headers.length, 6, route);
      for (const name of seen.headers) assert.ok(text.includes(`<code>${name}</code>`), name);
    }
    const count = await call(h, limited.key, COUNT_TOKENS_ROUTE, chat());
    assert.deepEqual(count.headers, [], "count_tokens carries none, as the page says");
    await h.request("/admin/v1/teams", {
      method: "POST",
      headers: { authorization: `Bearer ${h.adminKey}` },
      json: { id: "research", budget_usd: 5 },
    });
    const member = await createKey(h, { team: "research", budget_usd: 1, max_parallel: 2 });
    const usage = await (await h.request("/v1/usage", {
      headers: { authorization: `Bearer ${member.key}` },
    })).json();
    const fields = [...Object.keys(usage), ...Object.keys(usage.budget), "groups"];
    for (const field of fields) {
      assert.ok(text.includes(`<tr data-usage-field="${field}">`), field);
    }
    for (const query of ["start", "end", "group_by", "key_id", "team"]) {
      assert.ok(text.includes(`<tr data-usage-field="${query}">`), query);
    }
  } finally {
    await h.close();
  }
});
