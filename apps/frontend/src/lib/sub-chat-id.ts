/**
 * The id of the sub-chat that runs one `newTask` call, derived from the parent chat and
 * the call. Being deterministic is what makes "nothing runs twice" hold across reloads
 * and tabs: a second start for the same call reuses the id, and the server refuses a
 * chat id that is already taken (409) instead of creating a second sub-chat.
 *
 * A plain string hash (two 53-bit cyrb53 rounds) rather than crypto.subtle, which only
 * exists on https/localhost and Baton is often self-hosted on a LAN address over http.
 */
export function subChatIdFor(parentChatId: string, toolCallId: string): string {
  const key = `${parentChatId}\u0000${toolCallId}`;
  return `sub_${cyrb53(key, 1).toString(36)}${cyrb53(key, 2).toString(36)}`;
}

function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
