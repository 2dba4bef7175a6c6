/** Base64 (RFC 4648, with padding) without Node's Buffer, so the engine stays portable. */
export const encode = (bytes: Uint8Array): string => {
  // btoa takes a binary string; built 32 KiB at a time, within what a spread of arguments may hold.
  let binary = ""
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  }
  return btoa(binary)
}

/**
 * Base64url (RFC 4648 section 5) without padding: secrets, sealed values and cursors, which travel
 * in URLs, headers and JSON.
 */
export const encodeUrl = (bytes: Uint8Array): string =>
  encode(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

/**
 * The bytes of base64url text, padded or not. Throws on text that is not base64 (`atob`'s
 * DOMException): callers decode what they issued, and turn a throw into their own refusal.
 */
export const decodeUrl = (text: string): Uint8Array =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (character) => character.charCodeAt(0))
