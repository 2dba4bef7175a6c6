/** Base64 (RFC 4648, with padding) without Node's Buffer, so the engine stays portable. */
export const encode = (bytes: Uint8Array): string => {
  // btoa takes a binary string; built 32 KiB at a time, within what a spread of arguments may hold.
  let binary = ""
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  }
  return btoa(binary)
}
