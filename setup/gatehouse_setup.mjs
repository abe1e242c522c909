#!/usr/bin/env node
// @ts-check
/**
 * gatehouse client set-up: points Claude Code, Codex, Continue or Zed at a gatehouse gateway.
 * Runs on Node 18+ and Deno with no dependencies. The docs host serves it, with its addresses
 * filled in, as /setup/gatehouse-setup.mjs (one file); `--help` lists the options.
 *
 *   node gatehouse-setup.mjs claude-code --mode remapped
 *   deno run -A gatehouse-setup.mjs codex --dry-run
 * @module
 */
import process from "node:process";
import { main } from "./lib/run.mjs";

process.exitCode = await main(process.argv.slice(2));
