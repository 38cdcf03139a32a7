/**
 * The id a restored row takes when its own is taken here: derived from (author, kind, original
 * id), the same on every restore, so restoring the same archive twice finds its rows already there.
 */
import crypto from 'node:crypto';

/** A UUIDv7-shaped id from (author, kind, original): the original's time, the rest from a hash. */
export function derivedId(userId: string, kind: string, original: string): string {
  const hex = crypto.createHash('sha256').update(`${userId}:${kind}:${original}`).digest('hex');
  const time = original.replace(/-/g, '').slice(0, 12).padEnd(12, '0');
  const variant = ((parseInt(hex[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${hex.slice(0, 3)}-${variant}${hex.slice(4, 7)}-${hex.slice(7, 19)}`;
}
