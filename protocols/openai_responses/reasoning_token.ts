/**
 * Reasoning continuation tokens in Responses `encrypted_content`. OpenAI's own encrypted
 * reasoning travels as is. An Anthropic thinking signature (when a Responses client such as
 * Codex talks to a Claude model) travels in a gatehouse envelope, so that the next turn can hand
 * it back to Anthropic with the thinking text Codex replays in the item's summary: without it,
 * Claude's thinking could not continue across tool calls. The envelope never reaches OpenAI:
 * upstream encoders drop tokens of another vendor.
 * @module
 */
import type { VendorToken } from "../../core/content.ts";

const ENVELOPE = "gatehouse.v1.";
const ANTHROPIC = `${ENVELOPE}anthropic.`;
const ANTHROPIC_REDACTED = `${ENVELOPE}anthropic-redacted.`;

/** A token → the `encrypted_content` string a Responses client stores and sends back. */
export function encryptedContentOf(token: VendorToken, redacted = false): string {
  if (token.vendor === "openai") return token.value;
  return (redacted ? ANTHROPIC_REDACTED : ANTHROPIC) + token.value;
}

/** An `encrypted_content` string → its token (OpenAI unless it is a gatehouse envelope). */
export function tokenOfEncryptedContent(value: string): { token: VendorToken; redacted: boolean } {
  if (value.startsWith(ANTHROPIC_REDACTED)) {
    return {
      token: { vendor: "anthropic", value: value.slice(ANTHROPIC_REDACTED.length) },
      redacted: true,
    };
  }
  if (value.startsWith(ANTHROPIC)) {
    return {
      token: { vendor: "anthropic", value: value.slice(ANTHROPIC.length) },
      redacted: false,
    };
  }
  return { token: { vendor: "openai", value }, redacted: false };
}
