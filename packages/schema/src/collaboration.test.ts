import { describe, expect, it } from 'vitest';
import {
  INVITE_TTL_DAYS,
  MESSAGES,
  createCollaborativeSeriesBodySchema,
  describeActivity,
  inviteBodySchema,
  inviteExpiresAt,
  isInviteExpired,
  roleAllows,
} from './index.ts';

describe('collaboration rules', () => {
  it('roles: viewer reads, editor edits, admin manages, owner owns', () => {
    const table = (['viewer', 'editor', 'admin', 'owner'] as const).map((role) =>
      (['read', 'edit', 'manage', 'own'] as const).map((level) => roleAllows(role, level)),
    );
    expect(table).toEqual([
      [true, false, false, false],
      [true, true, false, false],
      [true, true, true, false],
      [true, true, true, true],
    ]);
  });

  it('an invite expires 14 days after it was sent', () => {
    const sent = new Date('2026-11-01T10:00:00.000Z');
    const expires = inviteExpiresAt(sent);
    expect(Date.parse(expires) - sent.getTime()).toBe(INVITE_TTL_DAYS * 86_400_000);
    expect(isInviteExpired(expires, new Date(Date.parse(expires) - 1))).toBe(false);
    expect(isInviteExpired(expires, new Date(expires))).toBe(true);
  });

  it("validates with the spec's messages and defaults (viewer, not public)", () => {
    expect(createCollaborativeSeriesBodySchema.parse({ name: 'Saga', description: 'Ten chars!' })).toMatchObject({ isPublic: false });
    expect(createCollaborativeSeriesBodySchema.safeParse({ name: ' ab ', description: 'Ten chars!' }).error?.issues[0]?.message).toBe(
      MESSAGES.collaboration.nameMin,
    );
    expect(inviteBodySchema.parse({ inviteeEmail: ' a@b.co ' })).toEqual({ inviteeEmail: 'a@b.co', role: 'viewer' });
    expect(inviteBodySchema.safeParse({ inviteeEmail: 'a@b.co', role: 'owner' }).error?.issues[0]?.message).toBe(MESSAGES.collaboration.roleRequired);
    expect(inviteBodySchema.safeParse({ inviteeEmail: 'nope' }).error?.issues[0]?.message).toBe(MESSAGES.collaboration.invalidEmail);
  });

  it('words the activity record', () => {
    expect(describeActivity({ userName: 'Ann', action: 'member.joined', detail: { role: 'editor' } })).toBe('Ann joined as Editor');
    expect(describeActivity({ userName: 'Bo', action: 'content.changed', detail: { verb: 'edited the chapter', title: 'One' } })).toBe('Bo edited the chapter "One"');
  });
});
