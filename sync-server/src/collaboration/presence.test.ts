import { describe, expect, it } from 'vitest';
import { PRESENCE_TTL_MS } from '@chronicler/schema';
import { PresenceBoard } from './presence.ts';

describe('PresenceBoard', () => {
  it('forgets an editor that stopped reporting after the TTL', () => {
    const board = new PresenceBoard();
    board.touch('ch', 'ann', 'Ann', 0);
    expect(board.touch('ch', 'bea', 'Bea', 1_000)).toEqual([{ userId: 'ann', displayName: 'Ann' }]);
    expect(board.others('ch', 'bea', PRESENCE_TTL_MS - 1)).toHaveLength(1);
    expect(board.others('ch', 'bea', PRESENCE_TTL_MS)).toEqual([]);
  });
});
