import { describe, expect, it } from 'vitest';
import { type Entitlement, newId } from '@chronicler/schema';
import { keepEntitlements } from './entitlements.ts';
import { USER_ID, freshDb } from './testing/fixtures.ts';

function entitlement(fields: Partial<Entitlement> = {}): Entitlement {
  return {
    id: newId(),
    rev: 1,
    createdAt: '2026-11-25T10:00:00.000Z',
    updatedAt: '2026-11-25T10:00:00.000Z',
    deletedAt: null,
    userId: USER_ID,
    kind: 'custom-theme-pack',
    expiresAt: null,
    giftCode: null,
    giftRedeemedAt: null,
    ...fields,
  };
}

describe('keepEntitlements', () => {
  it('stores the author\'s rows and never lets an older revision replace a newer one', async () => {
    const db = freshDb();
    const gift = entitlement({ kind: 'gift-subscription', giftCode: 'ABCD-EFGH-JKMN', rev: 5 });
    await keepEntitlements(db, [gift, entitlement({ kind: 'inspiration-pack', rev: 3 })]);
    await keepEntitlements(db, [{ ...gift, rev: 7, giftRedeemedAt: '2026-11-26T00:00:00.000Z' }]);
    await keepEntitlements(db, [{ ...gift, rev: 5 }]);
    const rows = await db.entitlements.toArray();
    expect(rows.map((r) => r.kind).sort()).toEqual(['gift-subscription', 'inspiration-pack']);
    expect((await db.entitlements.get(gift.id))!.giftRedeemedAt).toBe('2026-11-26T00:00:00.000Z');
  });

  it('ignores rows of another author', async () => {
    const db = freshDb();
    await keepEntitlements(db, [entitlement({ userId: newId() })]);
    expect(await db.entitlements.count()).toBe(0);
  });
});
