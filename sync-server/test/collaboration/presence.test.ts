import { describe, expect, it } from 'vitest';
import { PRESENCE_TTL_MS } from '@chronicler/schema';
import { PresenceBoard } from '../../src/collaboration/presence.ts';

describe('PresenceBoard', () => {
  it('announces an arrival once, and a heartbeat is no change', () => {
    const board = new PresenceBoard();
    expect(board.enter('ch', 's1', 'ann', 'Ann', 0)).toEqual({ chapterId: 'ch', seriesId: 's1' });
    expect(board.enter('ch', 's1', 'ann', 'Ann', 1_000)).toBeNull();
    expect(board.enter('ch', 's1', 'bea', 'Bea', 1_000)).not.toBeNull();
    expect(board.present('ch').map((p) => p.displayName)).toEqual(['Ann', 'Bea']);
  });

  it('forgets an editor that stopped reporting after the TTL, and says which chapter changed', () => {
    const board = new PresenceBoard();
    board.enter('ch', 's1', 'ann', 'Ann', 0);
    board.enter('ch', 's1', 'bea', 'Bea', 1_000);
    expect(board.sweep(PRESENCE_TTL_MS - 1)).toEqual([]);
    expect(board.sweep(PRESENCE_TTL_MS)).toEqual([{ chapterId: 'ch', seriesId: 's1' }]);
    expect(board.present('ch')).toEqual([{ userId: 'bea', displayName: 'Bea' }]);
  });

  it('takes an author whose streams all closed out of every chapter', () => {
    const board = new PresenceBoard();
    board.enter('a', 's1', 'ann', 'Ann', 0);
    board.enter('b', 's2', 'ann', 'Ann', 0);
    board.enter('b', 's2', 'bea', 'Bea', 0);
    expect(board.leaveAll('ann')).toEqual([
      { chapterId: 'a', seriesId: 's1' },
      { chapterId: 'b', seriesId: 's2' },
    ]);
    expect(board.present('a')).toEqual([]);
    expect(board.leave('b', 'ann')).toBeNull();
    expect(board.present('b')).toHaveLength(1);
  });
});
