/**
 * UUIDv7 ids made on the client (DESIGN.md §2). Built on getRandomValues because
 * crypto.randomUUID is missing on plain-http LAN origins. Time-ordered, so ids sort by creation.
 */
let lastMs = 0;
let counter = 0;

export function newId(now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  // Keep ids monotonic within one millisecond: a 12-bit counter in rand_a.
  if (now === lastMs) {
    counter = (counter + 1) & 0xfff;
  } else {
    lastMs = now;
    counter = (bytes[6]! & 0x0f) << 8 | bytes[7]!;
    counter &= 0x7ff; // leave headroom so the counter rarely wraps inside one millisecond
  }
  const ms = BigInt(now);
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export function isId(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}
