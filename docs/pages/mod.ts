/**
 * Every docs page, in navigation order.
 * @module
 */
import { catalogPage } from "./catalog.ts";
import { claudeCodePage } from "./claude_code.ts";
import { codexPage } from "./codex.ts";
import { continuePage, zedPage } from "./config_editors.ts";
import { clinePage, cursorPage } from "./editors.ts";
import { errorsPage } from "./errors.ts";
import { keysPage } from "./keys.ts";
import { observabilityPage } from "./observability.ts";
import type { DocsPage } from "./page.ts";
import { performancePage } from "./performance.ts";
import { quickStartPage } from "./quick_start.ts";
import { referencePage } from "./reference.ts";
import { reliabilityPage } from "./reliability.ts";
import { anthropicSdkPage, openaiSdkPage } from "./sdks.ts";

export type { DocsPage } from "./page.ts";

/** The pages. */
export const PAGES: DocsPage[] = [
  quickStartPage,
  claudeCodePage,
  codexPage,
  cursorPage,
  continuePage,
  zedPage,
  clinePage,
  openaiSdkPage,
  anthropicSdkPage,
  catalogPage,
  keysPage,
  reliabilityPage,
  observabilityPage,
  performancePage,
  errorsPage,
  referencePage,
];
