/**
 * The dashboard's tables and forms (browser JavaScript, inside `dashboard.js`): keys and teams
 * with their policies, spend in the range and remaining budget; create, edit, rotate and revoke
 * keys (a new secret shown once, then dropped); create, edit and delete teams; deployments
 * with their health. Every change goes through the admin API.
 * @module
 */

/** The tables and forms, as browser JavaScript. */
export const ADMIN_JS = `
const POLICY = ["models", "rpm", "tpm", "max_parallel", "budget_usd", "budget_period", "expires_at"];
const NUMERIC = new Set(["rpm", "tpm", "max_parallel", "budget_usd"]);

function policyText(policy) {
  const parts = [];
  if (policy.models) parts.push("models " + policy.models.join(", "));
  if (policy.rpm !== undefined) parts.push(policy.rpm + " rpm");
  if (policy.tpm !== undefined) parts.push(policy.tpm + " tpm");
  if (policy.max_parallel !== undefined) parts.push(policy.max_parallel + " in parallel");
  if (policy.budget_usd !== undefined) {
    parts.push(usd(policy.budget_usd) + " per " + (policy.budget_period || "total"));
  }
  if (policy.expires_at) parts.push("expires " + when(policy.expires_at));
  return parts.length === 0 ? "no limits" : parts.join(" · ");
}

function budgetText(budget) {
  if (!budget) return "–";
  return usd(budget.remaining_usd) + " of " + usd(budget.budget_usd);
}

function button(text, onclick, danger) {
  return el("button", { type: "button", class: danger ? "danger" : null, text, onclick });
}

/** A form's policy fields as a body: blank fields left out (create) or cleared (edit). */
function policyBody(form, editing) {
  const body = {};
  for (const name of POLICY) {
    const raw = form.elements[name].value.trim();
    if (raw === "") {
      if (editing) body[name] = null;
    } else if (name === "models") {
      body.models = raw.split(",").map((m) => m.trim()).filter((m) => m !== "");
    } else body[name] = NUMERIC.has(name) ? Number(raw) : raw;
  }
  return body;
}

function fillPolicy(form, policy) {
  for (const name of POLICY) {
    const value = policy[name];
    form.elements[name].value = value === undefined ? "" : Array.isArray(value) ? value.join(", ") : String(value);
  }
}

function showSecret(title, key) {
  byId("secret-title").textContent = title;
  byId("secret-value").textContent = key;
  byId("secret").hidden = false;
}

function hideSecret() {
  byId("secret-value").textContent = "";
  byId("secret").hidden = true;
}

/** Runs an admin change, then refreshes everything; errors go to the board. */
async function change(action) {
  try {
    report(null);
    await action();
    await refreshAll();
  } catch (error) {
    report(error);
  }
}

function renderKeys(spendByKey) {
  const rows = G.keys.map((k) => {
    const live = k.revoked_at === null;
    const actions = live
      ? [
        button("Edit", () => editKey(k)),
        button("Rotate", () => rotateKey(k)),
        button("Revoke", () => revokeKey(k), true),
      ]
      : [];
    return el("tr", { class: live ? null : "revoked", "data-key-id": k.id }, [
      el("td", { text: k.name }),
      el("td", {}, [el("code", { text: k.hint })]),
      el("td", { text: k.team || "–" }),
      el("td", {}, [k.admin ? badge("admin", "info") : ""]),
      el("td", { text: policyText(k.policy) }),
      el("td", { class: "num", text: usd(spendByKey[k.id] || 0) }),
      el("td", { class: "num", text: budgetText(k.budget) }),
      el("td", { text: when(k.last_used_at) }),
      el("td", {}, [live ? badge("live", "ok") : badge("revoked " + when(k.revoked_at), "bad")]),
      el("td", {}, [el("div", { class: "actions" }, actions)]),
    ]);
  });
  fillTable(byId("keys"), [
    "Name", "Key", "Team", "Role", "Policy", "Spend (range)", "Budget left", "Last used", "Status", "",
  ], rows);
}

function renderTeams(spendByTeam) {
  const rows = G.teams.map((t) => el("tr", { "data-team-id": t.id }, [
    el("td", { text: t.id }),
    el("td", { class: "num", text: count(t.keys) }),
    el("td", { text: policyText(t.policy) }),
    el("td", { class: "num", text: usd(spendByTeam[t.id] || 0) }),
    el("td", { class: "num", text: budgetText(t.budget) }),
    el("td", {}, [el("div", { class: "actions" }, [
      button("Edit", () => editTeam(t)),
      button("Delete", () => deleteTeam(t), true),
    ])]),
  ]));
  fillTable(byId("teams"), ["Team", "Keys", "Policy", "Spend (range)", "Budget left", ""], rows);
}

function renderDeployments(list) {
  const tone = { healthy: "ok", cooling: "bad", probing: "warn" };
  const rows = list.map((d) => el("tr", { "data-deployment": d.id }, [
    el("td", {}, [el("code", { text: d.id })]),
    el("td", { text: d.model || d.pattern || "" }),
    el("td", { text: d.provider }),
    el("td", {}, [badge(d.state, tone[d.state] || "info")]),
    el("td", { class: "num", text: count(d.in_flight) }),
    el("td", { class: "num", text: count(d.recent.errors) + " / " + count(d.recent.requests) }),
    el("td", { text: d.cooldown_until ? when(d.cooldown_until) : "–" }),
    el("td", { text: d.last_error ? JSON.stringify(d.last_error) : "–" }),
  ]));
  fillTable(byId("deployments"), [
    "Deployment", "Model", "Provider", "State", "In flight", "Errors / requests (5 min)",
    "Cooling until", "Last error",
  ], rows);
}

function resetKeyForm() {
  const form = byId("key-form");
  form.reset();
  form.removeAttribute("data-editing");
  byId("key-form-title").textContent = "New key";
  byId("key-submit").textContent = "Create key";
  byId("key-cancel").hidden = true;
}

function editKey(k) {
  const form = byId("key-form");
  form.setAttribute("data-editing", k.id);
  form.elements.name.value = k.name;
  form.elements.team.value = k.team || "";
  form.elements.admin.checked = k.admin;
  fillPolicy(form, k.policy);
  byId("key-form-title").textContent = "Edit key " + k.name;
  byId("key-submit").textContent = "Save key";
  byId("key-cancel").hidden = false;
  form.scrollIntoView({ block: "center" });
}

function submitKey(event) {
  event.preventDefault();
  const form = byId("key-form");
  const editing = form.getAttribute("data-editing");
  const team = form.elements.team.value.trim();
  const body = { name: form.elements.name.value, ...policyBody(form, editing !== null) };
  if (team !== "" || editing) body.team = team === "" ? null : team;
  if (form.elements.admin.checked || editing) body.admin = form.elements.admin.checked;
  change(async () => {
    if (editing) await api("PATCH", "/keys/" + encodeURIComponent(editing), body);
    else showSecret("New key " + body.name, (await api("POST", "/keys", body)).key);
    resetKeyForm();
  });
}

function rotateKey(k) {
  if (!confirm("Rotate " + k.name + "? The old secret keeps working for a day.")) return;
  change(async () => {
    const rotated = await api("POST", "/keys/" + encodeURIComponent(k.id) + "/rotate", {});
    showSecret("New secret for " + k.name, rotated.key);
  });
}

function revokeKey(k) {
  if (!confirm("Revoke " + k.name + "? It stops working at once.")) return;
  change(() => api("DELETE", "/keys/" + encodeURIComponent(k.id)));
}

function resetTeamForm() {
  const form = byId("team-form");
  form.reset();
  form.removeAttribute("data-editing");
  form.elements.id.disabled = false;
  byId("team-form-title").textContent = "New team";
  byId("team-submit").textContent = "Create team";
  byId("team-cancel").hidden = true;
}

function editTeam(t) {
  const form = byId("team-form");
  form.setAttribute("data-editing", t.id);
  form.elements.id.value = t.id;
  form.elements.id.disabled = true;
  fillPolicy(form, t.policy);
  byId("team-form-title").textContent = "Edit team " + t.id;
  byId("team-submit").textContent = "Save team";
  byId("team-cancel").hidden = false;
}

function submitTeam(event) {
  event.preventDefault();
  const form = byId("team-form");
  const editing = form.getAttribute("data-editing");
  change(async () => {
    if (editing) {
      await api("PATCH", "/teams/" + encodeURIComponent(editing), policyBody(form, true));
    } else {
      await api("POST", "/teams", { id: form.elements.id.value.trim(), ...policyBody(form, false) });
    }
    resetTeamForm();
  });
}

function deleteTeam(t) {
  if (!confirm("Delete team " + t.id + "?")) return;
  change(() => api("DELETE", "/teams/" + encodeURIComponent(t.id)));
}
`;
