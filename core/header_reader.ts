/**
 * The one thing the gateway does with an upstream response's headers: read a field by name.
 * The runtime's `Headers` is one; the HTTP/1.1 client's parsed heads are another.
 * @module
 */

/** Reads header fields by case-insensitive name; null when absent. */
export interface HeaderReader {
  get(name: string): string | null;
}
