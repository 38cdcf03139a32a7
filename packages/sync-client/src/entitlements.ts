/**
 * Entitlements (products owned, gift months; docs/server.md#billing) are user-scoped rows the
 * server writes when a verified Stripe webhook grants them; the client only keeps them.
 * `keepEntitlements` stores the rows an answer carried, never replacing a row with an older
 * revision of itself (a late answer cannot undo a newer one that the changes feed brought).
 */
import type { Entitlement } from '@chronicler/schema';
import type { ChroniclerDb } from './db.ts';

export async function keepEntitlements(db: ChroniclerDb, rows: readonly Entitlement[]): Promise<void> {
  const mine = rows.filter((row) => row.userId === db.userId);
  if (mine.length === 0) return;
  await db.transaction('rw', db.entitlements, async () => {
    const stored = await db.entitlements.bulkGet(mine.map((row) => row.id));
    const newer = mine.filter((row, i) => stored[i] === undefined || stored[i]!.rev < row.rev);
    if (newer.length > 0) await db.entitlements.bulkPut(newer);
  });
}
