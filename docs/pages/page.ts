/**
 * The shape of a docs page: a path, a title and a body rendered from the site context.
 * @module
 */
import type { Html } from "../html.ts";
import type { Site } from "../site.ts";

/** One docs page. */
export interface DocsPage {
  path: string;
  title: string;
  render(site: Site): Html;
  /** Extra `<head>` elements. */
  head?(site: Site): Html;
}
