/**
 * UUIDv7 ids made on the client (docs/architecture.md#identity). Built on getRandomValues because
 * crypto.randomUUID is missing on plain-http LAN origins. Time-ordered, so ids sort by creation.
 * Ids are not secrets: random bytes are drawn 4 KB at a time (one getRandomValues call per 409
 * ids; the server makes one or two per save, and a call per id cost more than the rest of it).
 */
let lastMs = 0;
let counter = 0;

/** Random bytes one id takes: the counter's seed (2), the variant byte and the 7 after it (8). */
const RANDOM_BYTES_PER_ID = 10;
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let offset = 0;

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const hex = (bytes: ArrayLike<number>, from: number, to: number) => {
  let out = '';
  for (let i = from; i < to; i++) out += HEX[bytes[i]!]!;
  return out;
};

export function newId(now: number = Date.now()): string {
  if (offset + RANDOM_BYTES_PER_ID > pool.length) {
    pool = new Uint8Array(POOL_BYTES);
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  const r = offset;
  offset += RANDOM_BYTES_PER_ID;
  // Keep ids monotonic within one millisecond: a 12-bit counter in rand_a.
  if (now === lastMs) {
    counter = (counter + 1) & 0xfff;
  } else {
    lastMs = now;
    counter = (((pool[r]! & 0x0f) << 8) | pool[r + 1]!) & 0x7ff; // headroom so the counter rarely wraps inside one millisecond
  }
  const bytes = new Array<number>(16);
  // The 48-bit millisecond timestamp, big-endian, in two 24-bit halves (exact in doubles).
  const high = Math.floor(now / 0x1000000);
  const low = now % 0x1000000;
  bytes[0] = (high >> 16) & 0xff;
  bytes[1] = (high >> 8) & 0xff;
  bytes[2] = high & 0xff;
  bytes[3] = (low >> 16) & 0xff;
  bytes[4] = (low >> 8) & 0xff;
  bytes[5] = low & 0xff;
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = (pool[r + 2]! & 0x3f) | 0x80;
  for (let i = 9; i < 16; i++) bytes[i] = pool[r + i - 6]!;
  return `${hex(bytes, 0, 4)}-${hex(bytes, 4, 6)}-${hex(bytes, 6, 8)}-${hex(bytes, 8, 10)}-${hex(bytes, 10, 16)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export function isId(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}
