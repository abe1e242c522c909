/**
 * Header field syntax shared by the upstream client and the catalog's `headers` setting.
 * @module
 */

/** An RFC 9110 token, the syntax of a header name, as regular-expression source. */
export const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";

/** A header name `Headers` would accept. */
export const HEADER_NAME = new RegExp(`^${TOKEN}$`);
