/**
 * Header field syntax shared by the upstream client and the catalog's `headers` setting.
 * @module
 */

/** A header name `Headers` would accept (an RFC 9110 token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
