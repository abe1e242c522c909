/**
 * The internal representation: request, content parts, stream parts, usage, stop reasons,
 * errors and the converter contract. No I/O, no wire formats.
 * @module
 */
export * from "./content.ts";
export * from "./request.ts";
export * from "./response.ts";
export * from "./stream.ts";
export * from "./convert.ts";
export * from "./errors.ts";
