/**
 * Server-side HTML with escaping by default: every value interpolated into `html` is escaped
 * unless it is itself `Html` (built by `html` or marked trusted with `trusted`).
 * @module
 */

/** A fragment of markup that is already safe to emit. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What `html` accepts between its literal parts. */
export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

function emit(part: Part): string {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(emit).join("");
  if (part === null || part === undefined || part === false || part === true) return "";
  return escapeHtml(String(part));
}

/** The tagged template every page is written with: values are escaped, `Html` is kept. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += emit(value) + strings[index + 1]!;
  });
  return new Html(out);
}

/** Marks markup produced by trusted code (never user or config text) as safe. */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** A code block. */
export function code(text: string, language = ""): Html {
  return html`
    <pre class="code" ${language
      ? html`
        data-lang="${language}"
      `
      : ""}><code>${text.replace(/^\n+|\s+$/g, "")}</code></pre>
  `;
}
