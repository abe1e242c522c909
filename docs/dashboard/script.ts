/**
 * `dashboard.js`: the dashboard's browser script, one strict-mode function scope over its parts
 * (base, charts, tables and forms, start). Plain JavaScript with no build step; Chart.js is
 * loaded before it from the docs host's own assets.
 * @module
 */
import { ADMIN_JS } from "./js_admin.ts";
import { CHARTS_JS } from "./js_charts.ts";
import { CORE_JS } from "./js_core.ts";
import { MAIN_JS } from "./js_main.ts";

/** The script. */
export const DASHBOARD_JS = `"use strict";
(() => {${CORE_JS}${CHARTS_JS}${ADMIN_JS}${MAIN_JS}})();
`;
