/**
 * The dashboard script's base (browser JavaScript, served inside `dashboard.js`): the shared
 * state, a DOM builder that only ever sets text and attributes (key names and every other value
 * are user input: never `innerHTML`), the admin API client (the key from session storage, in
 * the `Authorization` header only) and number formats.
 * @module
 */

/** The base, as browser JavaScript. */
export const CORE_JS = `
const STORAGE = "gatehouse.adminKey";
const BASE = document.body.getAttribute("data-base") || "";
const G = {
  range: "24h",
  groupBy: "model",
  keys: [],
  teams: [],
  series: null,
  charts: {},
  timers: [],
};

/** An element with attributes (text: its text; on*: listeners) and children. */
function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children || []) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function byId(id) {
  return document.getElementById(id);
}

/** Replaces a table's content with a header row and body rows (arrays of cells). */
function fillTable(table, headers, rows) {
  table.replaceChildren(
    el("thead", {}, [el("tr", {}, headers.map((h) => el("th", { text: h })))]),
    el("tbody", {}, rows),
  );
}

function adminKey() {
  return sessionStorage.getItem(STORAGE);
}

/** An admin API call through the docs host; rejects with the API's own message. */
async function api(method, path, body) {
  const headers = { authorization: "Bearer " + adminKey() };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(BASE + "/admin/v1" + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    credentials: "omit",
  });
  const data = await response.json().catch(() => ({}));
  if (response.ok) return data;
  const error = new Error((data.error && data.error.message) || "HTTP " + response.status);
  error.status = response.status;
  throw error;
}

function usd(value) {
  if (value === null || value === undefined) return "–";
  const digits = value !== 0 && Math.abs(value) < 1 ? 4 : 2;
  return "$" + value.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

function count(value) {
  return value === null || value === undefined ? "–" : value.toLocaleString("en-US");
}

function ms(value) {
  return value === null || value === undefined ? "–" : Math.round(value).toLocaleString() + " ms";
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "–";
}

function badge(text, tone) {
  return el("span", { class: "badge " + tone, text });
}

/** Shows an error under the toolbar (or clears it). */
function report(error) {
  byId("board-error").textContent = error ? String(error.message || error) : "";
}
`;
