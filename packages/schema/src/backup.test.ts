import { describe, expect, it } from 'vitest';
import { isBackupDue } from './backup.ts';

describe('scheduled backups', () => {
  const at = (iso: string) => Date.parse(iso);
  it('are due only after a change, once the plan interval has passed', () => {
    const last = { createdAt: '2026-11-01T00:00:00.000Z', seq: 10 };
    expect(isBackupDue('weekly', null, 0, at('2026-11-01T00:00:00Z'))).toBe(false);
    expect(isBackupDue('weekly', null, 3, at('2026-11-01T00:00:00Z'))).toBe(true);
    expect(isBackupDue('weekly', last, 10, at('2026-12-01T00:00:00Z'))).toBe(false);
    expect(isBackupDue('weekly', last, 11, at('2026-11-07T23:59:59Z'))).toBe(false);
    expect(isBackupDue('weekly', last, 11, at('2026-11-08T00:00:00Z'))).toBe(true);
    expect(isBackupDue('daily', last, 11, at('2026-11-02T00:00:00Z'))).toBe(true);
    expect(isBackupDue('realtime', last, 11, at('2026-11-01T00:00:59Z'))).toBe(false);
    expect(isBackupDue('realtime', last, 11, at('2026-11-01T00:01:00Z'))).toBe(true);
  });
});
