/**
 * Password hashing with scrypt (docs/server.md#sessions-and-accounts, OWASP: N=2^17, r=8, p=1),
 * stored self-describing as `scrypt$N$r$p$saltB64$hashB64` so the cost can be raised later without
 * breaking old hashes. Runs on the libuv pool (callback API): a login never blocks the event loop.
 */
import crypto from 'node:crypto';
import type { ScryptCost } from '../config/config.ts';

const KEY_LENGTH = 64;
const SALT_LENGTH = 16;
const PREFIX = 'scrypt';
/** Largest cost a stored hash may ask for: a tampered row must not make verify allocate gigabytes. */
const MAX_N = 2 ** 20;

function derive(password: string, salt: Buffer, cost: ScryptCost, keyLength: number): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; leave headroom over the 32 MiB default so N=2^17 (128 MiB) works.
  const maxmem = 128 * cost.N * cost.r * cost.p + 32 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    crypto.scrypt(password.normalize('NFKC'), salt, keyLength, { N: cost.N, r: cost.r, p: cost.p, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, cost: ScryptCost): Promise<string> {
  const salt = crypto.randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, cost, KEY_LENGTH);
  return [PREFIX, cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash {
  cost: ScryptCost;
  salt: Buffer;
  key: Buffer;
}

export function parsePasswordHash(stored: string): ParsedHash | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const valid = [N, r, p].every((n) => Number.isInteger(n) && n > 0) && N <= MAX_N && (N & (N - 1)) === 0 && r <= 32 && p <= 16;
  if (!valid) return null;
  const salt = Buffer.from(parts[4]!, 'base64');
  const key = Buffer.from(parts[5]!, 'base64');
  if (salt.length === 0 || key.length === 0) return null;
  return { cost: { N, r, p }, salt, key };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.cost, parsed.key.length);
  return crypto.timingSafeEqual(candidate, parsed.key);
}

/**
 * A hash no password matches, at the configured cost: verifying against it for an unknown user
 * makes "no such user" take as long as "wrong password".
 */
export function dummyPasswordHash(cost: ScryptCost): string {
  return [PREFIX, cost.N, cost.r, cost.p, crypto.randomBytes(SALT_LENGTH).toString('base64'), crypto.randomBytes(KEY_LENGTH).toString('base64')].join(
    '$',
  );
}
