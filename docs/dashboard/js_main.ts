/**
 * The dashboard's start (browser JavaScript, inside `dashboard.js`): sign-in (the key checked
 * against `GET /admin/v1/status`, then kept in session storage only), the range and split
 * pickers, the live in-flight count every 2 s and the rest every 30 s, sign-out.
 * @module
 */

/** The start, as browser JavaScript. */
export const MAIN_JS = `
/** Reads everything and redraws: series, keys, teams, deployments, then the range's spend. An
 * answer that is no longer the latest refresh's (a range picked while another loaded) is
 * dropped, so a slow earlier answer never draws over a later choice. */
let refreshes = 0;
async function refreshAll() {
  const mine = ++refreshes;
  const [series, keys, teams, deployments] = await Promise.all([
    api("GET", "/usage/series?range=" + G.range + "&group_by=" + G.groupBy),
    api("GET", "/keys"),
    api("GET", "/teams"),
    api("GET", "/deployments"),
  ]);
  G.keys = keys.data;
  G.teams = teams.data;
  const period = "&start=" + encodeURIComponent(series.start) + "&end=" +
    encodeURIComponent(series.end);
  const [byKey, byTeam] = await Promise.all([
    api("GET", "/usage?group_by=key" + period),
    api("GET", "/usage?group_by=team" + period),
  ]);
  if (mine !== refreshes || !adminKey()) return;
  const spend = (report) => Object.fromEntries(report.groups.map((g) => [g.key, g.cost]));
  drawSeries(series);
  renderKeys(spend(byKey));
  renderTeams(spend(byTeam));
  renderDeployments(deployments.data);
  byId("updated").textContent = "updated " + new Date().toLocaleTimeString();
}

async function refreshStatus() {
  const status = await api("GET", "/status");
  byId("inflight").textContent = count(status.in_flight);
  byId("streams").textContent = count(status.streams_open);
}

/** Runs a refresh; a refused key signs out, anything else is shown. */
async function guarded(refresh) {
  try {
    await refresh();
  } catch (error) {
    if (error.status === 401 || error.status === 403) signOut(error.message);
    else report(error);
  }
}

function showBoard(signedIn) {
  byId("signin").hidden = signedIn;
  byId("board").hidden = !signedIn;
  byId("live").hidden = !signedIn;
}

async function start() {
  showBoard(true);
  await guarded(refreshStatus);
  // A refused key signed out: nothing more to read with it.
  if (!adminKey()) return;
  await guarded(refreshAll);
  if (!adminKey()) return;
  G.timers.push(setInterval(() => guarded(refreshStatus), 2000));
  G.timers.push(setInterval(() => guarded(refreshAll), 30000));
}

function signOut(message) {
  sessionStorage.removeItem(STORAGE);
  for (const timer of G.timers) clearInterval(timer);
  G.timers = [];
  for (const chart of Object.values(G.charts)) chart.destroy();
  G.charts = {};
  hideSecret();
  showBoard(false);
  byId("signin-error").textContent = message || "";
}

async function signIn(event) {
  event.preventDefault();
  const input = byId("admin-key");
  sessionStorage.setItem(STORAGE, input.value.trim());
  input.value = "";
  try {
    await api("GET", "/status");
  } catch (error) {
    signOut(error.message);
    return;
  }
  byId("signin-error").textContent = "";
  await start();
}

function pickRange(range) {
  G.range = range;
  for (const b of document.querySelectorAll("[data-range]")) {
    b.setAttribute("aria-pressed", String(b.getAttribute("data-range") === range));
  }
  guarded(refreshAll);
}

byId("signin-form").addEventListener("submit", signIn);
byId("signout").addEventListener("click", () => signOut(""));
byId("secret-done").addEventListener("click", hideSecret);
byId("key-form").addEventListener("submit", submitKey);
byId("key-cancel").addEventListener("click", resetKeyForm);
byId("team-form").addEventListener("submit", submitTeam);
byId("team-cancel").addEventListener("click", resetTeamForm);
for (const b of document.querySelectorAll("[data-range]")) {
  b.addEventListener("click", () => pickRange(b.getAttribute("data-range")));
}
byId("group-by").addEventListener("change", (event) => {
  G.groupBy = event.target.value;
  guarded(refreshAll);
});
window.gatehouseDashboard = { chartData, state: G };
if (adminKey()) start();
`;
