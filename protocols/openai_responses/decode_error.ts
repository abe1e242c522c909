/**
 * An upstream HTTP error from a Responses provider. Every OpenAI API shares one error envelope,
 * so the chat wire's reader (which also knows the compatible servers' variants) serves both.
 * @module
 */
export { decodeError } from "../openai_chat/decode_error.ts";
